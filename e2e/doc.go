// Package e2e holds the tests of the whole product: the real binary, built from the module root,
// against geth --dev and PostgreSQL. TestEndToEndGeth, and TestEndToEndClef (the minter's key in
// clef), run with every `go test ./...`; the long runs, TestChaos (`make chaos`) and TestSoak
// (`make soak`), only with the build tag long.
package e2e
