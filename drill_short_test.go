//go:build !long

package main

// drillPayments is the short drill's sale, which `make test` runs: two rounds of six payments.
const drillPayments = 12
