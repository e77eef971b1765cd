// Package static holds the files pages load (htmx, the stylesheet, the wallet snippet), embedded
// in the binary and served under a content hash, so they can be cached for good.
package static

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"path"
)

//go:embed htmx.min.js style.css wallet.js
var files embed.FS

// hashes maps each file to the first hex digits of its SHA-256: its URL changes with its content.
var hashes = func() map[string]string {
	m := map[string]string{}
	fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := files.ReadFile(name)
		sum := sha256.Sum256(b)
		m[name] = hex.EncodeToString(sum[:])[:12]
		return nil
	})
	return m
}()

// URL is the address of static file name: /static/<hash>/<name>.
func URL(name string) string { return path.Join("/static", hashes[name], name) }

// Open returns the content of name if hash is its current hash; ok is false otherwise, so an old
// URL cannot be served new content under a cache lifetime meant for the old.
func Open(hash, name string) (content []byte, ok bool) {
	if h, known := hashes[name]; !known || h != hash {
		return nil, false
	}
	b, err := files.ReadFile(name)
	return b, err == nil
}
