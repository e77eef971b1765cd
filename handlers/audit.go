package handlers

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/labstack/echo/v4"

	"nodeledger/store"
)

// actor is who makes the request's operator action: the signed-in operator, else the holder of
// the admin key (RequireAdmin let it through), named by the key's fingerprint.
func (h *Handlers) actor(c echo.Context) store.Actor {
	if s, ok := c.Get(operatorKey).(store.OperatorSession); ok {
		return store.Actor{Who: s.Address, IP: c.RealIP()}
	}
	return store.Actor{Who: "admin key " + keyFingerprint(h.cfg.AdminKey), IP: c.RealIP()}
}

// keyFingerprint names a key in the audit without giving it away: the first 8 hex digits of its
// sha256.
func keyFingerprint(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:4])
}

// entry is the audit entry of an action of the request on target; who, when not empty, is the
// actor's address (at sign-in, before the session exists).
func (h *Handlers) entry(c echo.Context, who string, action store.AuditAction, target string) store.AuditEntry {
	a := h.actor(c)
	if who != "" {
		a.Who = who
	}
	return store.AuditEntry{Actor: a, Action: action, Target: target}
}

// audited runs change with its audit entry in one transaction (store.Audited).
func (h *Handlers) audited(c echo.Context, action store.AuditAction, target string, change func(t store.Tx, e *store.AuditEntry) error) error {
	return h.store.Audited(c.Request().Context(), h.entry(c, "", action, target), change)
}
