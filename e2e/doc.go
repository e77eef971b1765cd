// Package e2e holds the tests of the whole product: the real binary, built from the module root,
// against geth --dev and PostgreSQL. TestEndToEndGeth, TestEndToEndClef (the minter's key in
// clef) and TestSaleDayShort run with every `go test ./...`; the long runs, TestChaos (`make
// chaos`), TestSoak (`make soak`) and TestSaleDay (`make saleday`), only with the build tag long.
package e2e
