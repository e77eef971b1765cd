package handlers

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"nodeledger/store"
)

// PutOperatorFromPage answers POST /operator/operators (address, role): an admin adds a wallet
// to the operator list or changes its role, which ends its sessions.
func (h *Handlers) PutOperatorFromPage(c echo.Context) (string, error) {
	address, err := h.otherOperator(c)
	if err != nil {
		return "", err
	}
	role := store.OperatorRole(c.FormValue("role"))
	if !role.Valid() {
		return "", errorf(http.StatusBadRequest, "A role is viewer, operator or admin.")
	}
	o := store.Operator{Address: address, Role: role}
	ctx := c.Request().Context()
	outcome := store.AuditOutcome{Args: store.AuditArgs{Address: address, Role: role}}
	err = h.audited(c, store.ActionOperatorPut, address, func(t store.Tx, e *store.AuditEntry) error {
		before, err := t.Operator(ctx, address)
		switch {
		case errors.Is(err, store.ErrNotFound):
			outcome.Code = store.OutcomeOperatorAdded
		case err != nil:
			return err
		case before.Role == role:
			outcome.Code = store.OutcomeOperatorUnchanged
		default:
			e.Before = before
			outcome.Code, outcome.Args.Was = store.OutcomeOperatorRoleChanged, before.Role
		}
		e.After, e.Outcome = o, outcome
		return t.PutOperator(ctx, o)
	})
	return auditSentence(outcome), err
}

// RemoveOperatorFromPage answers POST /operator/operators/remove (address): an admin takes a
// wallet off the operator list, which ends its sessions.
func (h *Handlers) RemoveOperatorFromPage(c echo.Context) (string, error) {
	address, err := h.otherOperator(c)
	if err != nil {
		return "", err
	}
	ctx := c.Request().Context()
	outcome := store.AuditOutcome{Code: store.OutcomeOperatorRemoved, Args: store.AuditArgs{Address: address}}
	err = h.audited(c, store.ActionOperatorRemove, address, func(t store.Tx, e *store.AuditEntry) error {
		before, err := t.Operator(ctx, address)
		if err != nil {
			return err
		}
		e.Before, e.Outcome = before, outcome
		return t.RemoveOperator(ctx, address)
	})
	if errors.Is(err, store.ErrNotFound) {
		return "", errorf(http.StatusNotFound, fmt.Sprintf("%s is not on the operator list.", address))
	}
	return auditSentence(outcome), err
}

// otherOperator is the form's address, which must not be the admin's own: an admin who demoted
// or removed themselves could leave the service with no admin.
func (h *Handlers) otherOperator(c echo.Context) (string, error) {
	address, err := parseAddress(strings.TrimSpace(c.FormValue("address")))
	if err != nil {
		return "", err
	}
	if me, _ := h.operatorSession(c); me.Address == address {
		return "", errorf(http.StatusConflict, "You cannot change your own role or remove yourself: another admin can.")
	}
	return address, nil
}

// Audit answers GET /api/admin/audit?limit=: the latest operator actions, newest first.
func (h *Handlers) Audit(c echo.Context) error {
	limit, err := parseLimit(c.QueryParam("limit"), c.QueryParams().Has("limit"), 100, 1000)
	if err != nil {
		return err
	}
	rs, err := h.store.AuditLog(c.Request().Context(), limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, mapSlice(rs, auditJSON))
}

// rawJSON passes stored JSON through as it is; nil is null.
func rawJSON(s *string) any {
	if s == nil {
		return nil
	}
	return json.RawMessage(*s)
}
