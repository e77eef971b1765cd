//go:build long

package main

// drillPayments is `make drill`'s sale: fifty rounds of six payments, a restart every other.
const drillPayments = 300
