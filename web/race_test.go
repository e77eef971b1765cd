//go:build race

package web

// raceDetector is true in a test binary built with -race.
const raceDetector = true
