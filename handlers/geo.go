package handlers

import (
	"fmt"
	"net/netip"
	"slices"

	"github.com/labstack/echo/v4"
	"github.com/oschwald/maxminddb-golang/v2"
)

// Where a buyer comes from (issue 52 §4): with BLOCKED_COUNTRIES and GEOIP_DB, the pages seen
// from a blocked country show the sale but no way to pay, and say why. It gates the pages only:
// a transfer to the payments wallet cannot be stopped, and is judged as any other.

// Geo tells which country an address is in, from a MaxMind-format database (GEOIP_DB: GeoLite2 or
// GeoIP2 Country or City, or any database with country.iso_code).
type Geo struct {
	db      *maxminddb.Reader
	blocked []string // ISO 3166-1 alpha-2 codes, upper case
}

// OpenGeo opens the database at path for the countries blocked.
func OpenGeo(path string, blocked []string) (*Geo, error) {
	db, err := maxminddb.Open(path)
	if err != nil {
		return nil, fmt.Errorf("GEOIP_DB: %w", err)
	}
	return &Geo{db: db, blocked: blocked}, nil
}

// Close closes the database.
func (g *Geo) Close() error { return g.db.Close() }

// Blocked is the blocked country addr is in, or "" when it is in none (or the database does not
// know it).
func (g *Geo) Blocked(addr netip.Addr) string {
	var rec struct {
		Country struct {
			ISOCode string `maxminddb:"iso_code"`
		} `maxminddb:"country"`
	}
	if err := g.db.Lookup(addr.Unmap()).Decode(&rec); err != nil || !slices.Contains(g.blocked, rec.Country.ISOCode) {
		return ""
	}
	return rec.Country.ISOCode
}

// blockedCountry is the blocked country the request comes from (its client's address, as the
// trusted proxies tell it), or "".
func (h *Handlers) blockedCountry(c echo.Context) string {
	if h.cfg.Geo == nil {
		return ""
	}
	addr, err := netip.ParseAddr(c.RealIP())
	if err != nil {
		return ""
	}
	return h.cfg.Geo.Blocked(addr)
}
