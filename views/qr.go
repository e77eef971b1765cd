package views

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/ethereum/go-ethereum/common"
	"rsc.io/qr"
)

// PaymentURI is the EIP-681 link of a plain transfer of wei to address on chain chainID:
// "ethereum:0xAbC…@1337?value=100000000000000000". The address is written with its EIP-55
// checksum, which wallets verify; the value is the exact wei, in plain digits.
func PaymentURI(address string, chainID int64, wei *big.Int) string {
	return "ethereum:" + common.HexToAddress(address).Hex() + "@" + strconv.FormatInt(chainID, 10) + "?value=" + wei.String()
}

// qrQuiet is the blank margin around a QR code, in modules, that scanners need.
const qrQuiet = 4

// QR draws text as a QR code in inline SVG, server side: a white square and one path of the dark
// modules, each row's runs as one rectangle. No script and no style attribute, which the CSP
// refuses; the size is the stylesheet's (svg.qr). label names it for screen readers.
func QR(text, label string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		code, err := qr.Encode(text, qr.M)
		if err != nil {
			return fmt.Errorf("qr %q: %w", text, err)
		}
		var d strings.Builder
		for y := range code.Size {
			for x := 0; x < code.Size; {
				if !code.Black(x, y) {
					x++
					continue
				}
				run := x
				for run < code.Size && code.Black(run, y) {
					run++
				}
				fmt.Fprintf(&d, "M%d %dh%dv1h-%dz", x+qrQuiet, y+qrQuiet, run-x, run-x)
				x = run
			}
		}
		side := strconv.Itoa(code.Size + 2*qrQuiet)
		_, err = io.WriteString(w, `<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 `+side+` `+side+`" role="img" aria-label="`+
			templ.EscapeString(label)+`" shape-rendering="crispEdges" data-testid="qr"><rect width="`+side+`" height="`+side+`" fill="#fff"/>`+
			`<path fill="#000" d="`+d.String()+`"/></svg>`)
		return err
	})
}
