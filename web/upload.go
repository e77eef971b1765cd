package web

import (
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"nodeledger/handlers"
)

// The operator page's list uploads (an allowlist, the denylist): a file is previewed, then the
// list the preview showed is posted back to be saved. Both take a file as large as the admin API's upload, with the
// form's few fields around it.
const (
	allowlistPreviewPage = "/operator/allowlist/preview"
	allowlistSavePage    = "/operator/allowlist"
	denylistPreviewPage  = "/operator/denylist/preview"
	denylistSavePage     = "/operator/denylist"
	maxUploadPage        = handlers.MaxListBody + maxBody
)

// largeBodies are the routes, by method and path, that take a body larger than maxBody, and how
// large: the allowlist uploads (bodyLimit).
var largeBodies = map[string]int64{
	http.MethodPut + " /api/admin" + allowlistPath: handlers.MaxListBody,
	http.MethodPut + " /api/admin" + denylistPath:  handlers.MaxListBody,
	http.MethodPut + " /api/admin" + kycListPath:   handlers.MaxListBody,
	http.MethodPost + " " + allowlistPreviewPage:   maxUploadPage,
	http.MethodPost + " " + allowlistSavePage:      maxUploadPage,
	http.MethodPost + " " + denylistPreviewPage:    maxUploadPage,
	http.MethodPost + " " + denylistSavePage:       maxUploadPage,
}

// operatorUpload takes the posts of the operator page's list uploads, which a file input
// sends as multipart/form-data, and only those routes take it. The parts, files included, are
// read here as a stream within the route's body limit (bodyLimit) into the form's values, so the
// handlers read them as on any form and nothing is spooled to the temp folder (which
// Request.ParseMultipartForm does beyond its memory bound).
func operatorUpload(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		mt, params, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
		if mt != echo.MIMEMultipartForm || params["boundary"] == "" {
			return echo.NewHTTPError(http.StatusUnsupportedMediaType, "A list is uploaded from the operator page's form, as a file (multipart/form-data).")
		}
		form := url.Values{}
		parts := multipart.NewReader(r.Body, params["boundary"])
		for {
			p, err := parts.NextPart()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return uploadError(err)
			}
			value, err := io.ReadAll(p)
			if err != nil {
				return uploadError(err)
			}
			if name := p.FormName(); name != "" {
				form.Add(name, string(value))
			}
		}
		r.Form, r.PostForm = form, form
		return next(c)
	}
}

// uploadError is the answer to an upload that cannot be read: too large (bodyLimit cut it off),
// or malformed.
func uploadError(err error) error {
	if tooLarge := new(http.MaxBytesError); errors.As(err, &tooLarge) {
		return handlers.ErrListTooLarge
	}
	return echo.NewHTTPError(http.StatusBadRequest, "The upload is malformed: choose the file again and send the form once more.")
}
