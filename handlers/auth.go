package handlers

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"

	"nodeledger/store"
)

const (
	// nonceCookie carries this browser's sign-in nonce; the signature is checked against it.
	nonceCookie = "nl_nonce"
	// sessionCookie is the wallet session: address, issue and expiry times, and an HMAC over
	// them (gorilla/sessions' cookie store), with no session kept server side.
	sessionCookie = "nl_session"
	nonceTTL      = 10 * time.Minute
	sessionTTL    = 7 * 24 * time.Hour
)

var errNotSignedIn = errorf(http.StatusUnauthorized, "You are not signed in, or your session has expired: sign in with your wallet.")

// newSessionStore makes the cookie store that signs sessions with secret; without one (dev mode,
// tests) with a random key, so sessions end with the process.
func newSessionStore(secret []byte, secure bool) *sessions.CookieStore {
	if len(secret) == 0 {
		secret = make([]byte, 32)
		rand.Read(secret)
	}
	s := sessions.NewCookieStore(secret)
	s.Options = &sessions.Options{Path: "/", MaxAge: int(sessionTTL.Seconds()), HttpOnly: true,
		Secure: secure, SameSite: http.SameSiteLaxMode}
	s.MaxAge(int(sessionTTL.Seconds())) // the signed timestamp is checked against it too
	return s
}

// Nonce answers GET|POST /api/auth/nonce: a fresh nonce and the EIP-4361 message to sign with
// it, the nonce also set in an httpOnly cookie. An optional ?address= names the account that
// will sign, which makes the message complete Sign-In with Ethereum, and binds the nonce to it.
func (h *Handlers) Nonce(c echo.Context) error {
	var address *string
	if v := c.QueryParam("address"); v != "" {
		a, err := parseAddress(v)
		if err != nil {
			return err
		}
		address = &a
	}
	raw := make([]byte, 16)
	if _, err := rand.Read(raw); err != nil {
		return err
	}
	issued := time.Now().UTC().Truncate(time.Second)
	n := store.SignInNonce{Nonce: hex.EncodeToString(raw), Address: address, IssuedAt: issued, ExpiresAt: issued.Add(nonceTTL)}
	if err := h.store.PutNonce(c.Request().Context(), n); err != nil {
		return err
	}
	c.SetCookie(h.cookie(nonceCookie, n.Nonce, nonceTTL))
	return c.JSON(http.StatusOK, map[string]string{
		"nonce":     n.Nonce,
		"message":   h.signInMessage(n),
		"expiresAt": *isoTime(&n.ExpiresAt),
	})
}

// signInMessage is the EIP-4361 message of nonce n, bound to our domain, URI and chain. Verify
// builds it again from the stored nonce, so what was signed is exactly what the server says.
func (h *Handlers) signInMessage(n store.SignInNonce) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s wants you to sign in with your Ethereum account:\n", h.cfg.PublicURL.Host)
	if n.Address != nil {
		b.WriteString(common.HexToAddress(*n.Address).Hex() + "\n") // EIP-55, as EIP-4361 asks
	}
	b.WriteString("\nSign in to see your nodes. This is not a transaction: it costs no gas and can move no funds.\n\n")
	fmt.Fprintf(&b, "URI: %s\nVersion: 1\nChain ID: %d\nNonce: %s\nIssued At: %s\nExpiration Time: %s",
		h.cfg.PublicURL.Scheme+"://"+h.cfg.PublicURL.Host, h.cfg.ChainID, n.Nonce,
		n.IssuedAt.Format(time.RFC3339), n.ExpiresAt.Format(time.RFC3339))
	return b.String()
}

// cookie is one of our cookies: httpOnly, SameSite=Lax, Secure when we are served over https.
func (h *Handlers) cookie(name, value string, ttl time.Duration) *http.Cookie {
	// #nosec G124 -- Secure follows PUBLIC_URL: dev mode and local runs are served over plain http.
	return &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: int(ttl.Seconds()), HttpOnly: true,
		Secure: h.cfg.PublicURL.Scheme == "https", SameSite: http.SameSiteLaxMode}
}

// Verify answers POST /api/auth/verify {address, signature}: the session cookie when the
// personal-sign signature over the message of this browser's nonce recovers to address.
func (h *Handlers) Verify(c echo.Context) error {
	address, proof, err := h.signedIn(c)
	if err != nil {
		return err
	}
	if err := h.startSession(c, address, proof); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"address": address})
}

// signedIn checks a Sign-In with Ethereum answer, the body {address, signature}, against this
// browser's nonce, and returns the address that signed, with the message and signature: the one
// check of a wallet's sign-in, for buyers (Verify) and operators (OperatorLogin) alike.
func (h *Handlers) signedIn(c echo.Context) (string, store.SignIn, error) {
	// The nonce cookie is spent by any attempt, good or bad.
	nonceCookieValue, cookieErr := c.Cookie(nonceCookie)
	c.SetCookie(h.cookie(nonceCookie, "", -time.Second))

	var body struct {
		Address   *string `json:"address"`
		Signature *string `json:"signature"`
	}
	if err := decodeBody(c, &body); err != nil {
		return "", store.SignIn{}, err
	}
	if body.Address == nil || body.Signature == nil {
		return "", store.SignIn{}, errorf(http.StatusBadRequest, "The body must carry address and signature, both 0x-prefixed hex strings.")
	}
	address, err := parseAddress(*body.Address)
	if err != nil {
		return "", store.SignIn{}, err
	}
	sig, err := hexutil.Decode(*body.Signature)
	if err != nil {
		return "", store.SignIn{}, errorf(http.StatusBadRequest, "signature must be 0x-prefixed hex.")
	}
	if cookieErr != nil {
		return "", store.SignIn{}, errorf(http.StatusUnauthorized, "No sign-in is under way in this browser: ask /api/auth/nonce for a new nonce.")
	}
	ctx := c.Request().Context()
	n, err := h.store.BurnNonce(ctx, nonceCookieValue.Value)
	if errors.Is(err, store.ErrNotFound) {
		return "", store.SignIn{}, errorf(http.StatusUnauthorized, "This sign-in nonce was used already or has lapsed: ask for a new one.")
	}
	if err != nil {
		return "", store.SignIn{}, err
	}
	badSignature := errorf(http.StatusUnauthorized, "The signature does not match the address: sign the message exactly as given, with that account.")
	if n.Address != nil && *n.Address != address {
		return "", store.SignIn{}, badSignature
	}
	msg := h.signInMessage(n)
	ok, err := h.signedBy(ctx, msg, sig, common.HexToAddress(address))
	if err != nil {
		return "", store.SignIn{}, err
	}
	if !ok {
		return "", store.SignIn{}, badSignature
	}
	return address, store.SignIn{Message: msg, Signature: sig}, nil
}

// signedBy reports whether sig is addr's personal-sign (EIP-191) signature of msg. An account's
// signature is 65 bytes, with v of 27/28 or 0/1; any other length is no match. When addr is a
// contract, the wallet itself is asked (EIP-1271), whatever the signature's shape.
func (h *Handlers) signedBy(ctx context.Context, msg string, sig []byte, addr common.Address) (bool, error) {
	hash := accounts.TextHash([]byte(msg))
	if len(sig) == crypto.SignatureLength {
		rsv := append([]byte(nil), sig...)
		if rsv[crypto.RecoveryIDOffset] >= 27 {
			rsv[crypto.RecoveryIDOffset] -= 27
		}
		if pub, err := crypto.SigToPub(hash, rsv); err == nil && crypto.PubkeyToAddress(*pub) == addr {
			return true, nil
		}
	}
	isContract, err := h.chain.HasCode(ctx, addr)
	if err != nil || !isContract {
		return false, err
	}
	return h.chain.ValidSignature(ctx, addr, common.BytesToHash(hash), sig)
}

// startSession sets the session cookie of address, which keeps the sign-in that made it: a
// binding the session makes is logged with it (store.SignIn), the wallet's own word.
func (h *Handlers) startSession(c echo.Context, address string, proof store.SignIn) error {
	s, _ := h.sessions.New(c.Request(), sessionCookie) // a stale or forged cookie is simply replaced
	now := time.Now()
	s.Values["addr"] = address
	s.Values["msg"], s.Values["sig"] = proof.Message, []byte(proof.Signature)
	s.Values["iat"] = now.UnixMicro()
	s.Values["exp"] = now.Add(sessionTTL).Unix()
	return s.Save(c.Request(), c.Response())
}

// sessionAddress is the signed-in wallet of the request, read from the session cookie alone:
// errNotSignedIn for a missing, forged, expired or signed-out session.
func (h *Handlers) sessionAddress(c echo.Context) (string, error) {
	s, err := h.sessions.Get(c.Request(), sessionCookie)
	if err != nil || s.IsNew {
		return "", errNotSignedIn
	}
	addr, ok1 := s.Values["addr"].(string)
	iat, ok2 := s.Values["iat"].(int64)
	exp, ok3 := s.Values["exp"].(int64)
	if !ok1 || !ok2 || !ok3 || time.Now().Unix() >= exp {
		return "", errNotSignedIn
	}
	out, err := h.store.SignedOutAt(c.Request().Context(), addr)
	if err != nil {
		return "", err
	}
	if out != nil && out.UnixMicro() >= iat {
		return "", errNotSignedIn // signed out since: a copied cookie dies with logout
	}
	return addr, nil
}

// sessionSignIn is the sign-in that made the request's session (checked by sessionAddress
// first); zero for a session made before sessions kept it.
func (h *Handlers) sessionSignIn(c echo.Context) store.SignIn {
	s, err := h.sessions.Get(c.Request(), sessionCookie)
	if err != nil {
		return store.SignIn{}
	}
	msg, _ := s.Values["msg"].(string)
	sig, _ := s.Values["sig"].([]byte)
	if msg == "" || len(sig) == 0 {
		return store.SignIn{}
	}
	return store.SignIn{Message: msg, Signature: sig}
}

// Logout answers POST /api/auth/logout: always {ok: true}. It clears this browser's session and
// half-finished sign-in, and ends every earlier session of the wallet, wherever its cookie went.
func (h *Handlers) Logout(c echo.Context) error {
	if addr, err := h.sessionAddress(c); err == nil {
		if err := h.store.SignOut(c.Request().Context(), addr); err != nil {
			return err
		}
	}
	c.SetCookie(h.cookie(sessionCookie, "", -time.Second))
	c.SetCookie(h.cookie(nonceCookie, "", -time.Second))
	return c.JSON(http.StatusOK, map[string]bool{"ok": true})
}
