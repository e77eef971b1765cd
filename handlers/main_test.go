package handlers

import (
	"os"
	"testing"

	"nodeledger/store/storetest"
)

// TestMain finds the PostgreSQL server the audit's tests make their databases on.
func TestMain(m *testing.M) {
	os.Exit(storetest.Main(m))
}
