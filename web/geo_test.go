package web

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/mmdbtype"

	"nodeledger/handlers"
	"nodeledger/store/storetest"
)

// geoDB writes a MaxMind-format country database, as MaxMind's writer makes one, that places
// each network of countries (CIDR → ISO code) in its country, and returns its path.
func geoDB(t *testing.T, countries map[string]string) string {
	t.Helper()
	tree, err := mmdbwriter.New(mmdbwriter.Options{DatabaseType: "GeoLite2-Country", RecordSize: 24, IncludeReservedNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	for cidr, code := range countries {
		_, network, err := net.ParseCIDR(cidr)
		if err != nil {
			t.Fatal(err)
		}
		if err := tree.Insert(network, mmdbtype.Map{"country": mmdbtype.Map{"iso_code": mmdbtype.String(code)}}); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "country.mmdb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := tree.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBlockedCountries: seen from a blocked country, the buy page shows the sale and says why
// it offers no way to pay: no Pay button, no payment address; from anywhere else (and from an
// address the database does not know), it offers them.
func TestBlockedCountries(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	geo, err := handlers.OpenGeo(geoDB(t, map[string]string{"203.0.113.0/24": "US", "198.51.100.0/24": "FR"}), []string{"US", "KP"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { geo.Close() })
	const payments = "0x00000000000000000000000000000000000000aa"
	s := newServer(t, db, handlers.Config{PaymentAddress: payments, Geo: geo})
	for ip, blocked := range map[string]bool{"203.0.113.9:4000": true, "198.51.100.9:4000": false, "192.0.2.1:4000": false} {
		rec := s.do(t, http.MethodGet, "/buy", ip)
		wantStatus(t, rec, http.StatusOK)
		doc := page(t, rec.Body)
		banner := doc.Find(`[data-testid=blocked-country]`)
		pay := doc.Find(`button[data-wallet=pay]`).Length()
		if blocked {
			if !strings.HasPrefix(banner.Text(), "This sale is not offered where you are (US).") || pay != 0 ||
				strings.Contains(rec.Body.String(), payments) {
				t.Fatalf("%s: banner %q, %d Pay buttons, payment address shown %v", ip, banner.Text(), pay, strings.Contains(rec.Body.String(), payments))
			}
			if doc.Find(`[data-testid=buy-tier][data-tier="1"]`).Length() != 1 {
				t.Fatalf("%s: the sale is not shown", ip)
			}
		} else if banner.Length() != 0 || pay != 1 {
			t.Fatalf("%s: banner %q, %d Pay buttons", ip, banner.Text(), pay)
		}
	}
}
