package chain

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"

	"github.com/ethereum/go-ethereum/rpc"
)

// Answers are a node's answers to JSON-RPC calls, by call: what a rebuild read of the chain, so
// that it can be run again with no node at all (a witness, issue 50 §6), as Ponder keeps every
// RPC answer it used. A call is its method and its parameters in canonical JSON; an answer is the
// result's JSON, or the error the node gave.
type Answers struct {
	mu    sync.Mutex
	calls map[string]Answer
}

// Answer is one call and what the node answered it.
type Answer struct {
	Call   json.RawMessage `json:"call"` // {"method": …, "params": …}, canonical
	Result json.RawMessage `json:"result,omitempty"`
	Error  *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// NewAnswers holds answers, as a witness file gives them (nil: none yet, to record).
func NewAnswers(answers []Answer) *Answers {
	a := &Answers{calls: make(map[string]Answer, len(answers))}
	for _, x := range answers {
		a.calls[string(x.Call)] = x
	}
	return a
}

// List is every answer held, in the order of their calls' text.
func (a *Answers) List() []Answer {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]Answer, 0, len(a.calls))
	for _, x := range a.calls {
		out = append(out, x)
	}
	sort.Slice(out, func(i, j int) bool { return string(out[i].Call) < string(out[j].Call) })
	return out
}

// DialRecording is Dial of one HTTP endpoint, url, whose answers are kept in a as they come.
func DialRecording(ctx context.Context, url string, cfg Config, a *Answers) (*Client, error) {
	rc, err := rpc.DialOptions(ctx, url, rpc.WithHTTPClient(&http.Client{Transport: recorder{a: a, next: http.DefaultTransport}}))
	if err != nil {
		return nil, &hiddenURLError{urlHider(url).Replace("dial: " + err.Error()), err}
	}
	return newClient([]*endpoint{newEndpoint(endpointName(url, nil), rc, urlHider(url))}, cfg), nil
}

// Replaying is a Client that asks no node: every call is answered from a, and a call a does not
// hold fails, naming it.
func Replaying(ctx context.Context, cfg Config, a *Answers) (*Client, error) {
	rc, err := rpc.DialOptions(ctx, "http://witness.invalid", rpc.WithHTTPClient(&http.Client{Transport: replayer{a: a}}))
	if err != nil {
		return nil, err
	}
	cfg.Attempts = 1 // an answer missing now is missing at every try
	return New(rc, cfg), nil
}

// message is a JSON-RPC request or response, or one element of a batch.
type message struct {
	Version string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// messages reads a body that holds one message or a batch of them; batch tells which.
func messages(body []byte) (msgs []message, batch bool, err error) {
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		return msgs, true, json.Unmarshal(body, &msgs)
	}
	var m message
	err = json.Unmarshal(body, &m)
	return []message{m}, false, err
}

// callKey is the canonical text of a call: its method and parameters, re-encoded so that the
// same call made twice is the same text whatever its spacing.
func callKey(m message) (string, error) {
	var params any
	if len(m.Params) > 0 {
		d := json.NewDecoder(bytes.NewReader(m.Params))
		d.UseNumber()
		if err := d.Decode(&params); err != nil {
			return "", err
		}
	}
	b, err := json.Marshal(struct {
		Method string `json:"method"`
		Params any    `json:"params"`
	}{m.Method, params})
	return string(b), err
}

// recorder sends each request on to next and keeps every answer it gets in a.
type recorder struct {
	a    *Answers
	next http.RoundTripper
}

func (r recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := readBody(&req.Body)
	if err != nil {
		return nil, err
	}
	res, err := r.next.RoundTrip(req)
	if err != nil || res.StatusCode != http.StatusOK {
		return res, err
	}
	out, err := readBody(&res.Body)
	if err != nil {
		return nil, err
	}
	calls, _, err := messages(body)
	if err != nil {
		return res, nil // not JSON-RPC: passed on, not kept
	}
	answers, _, err := messages(out)
	if err != nil {
		return res, nil
	}
	byID := make(map[string]message, len(answers))
	for _, m := range answers {
		byID[string(m.ID)] = m
	}
	r.a.mu.Lock()
	defer r.a.mu.Unlock()
	for _, c := range calls {
		got, ok := byID[string(c.ID)]
		key, err := callKey(c)
		if !ok || err != nil {
			continue
		}
		r.a.calls[key] = Answer{Call: json.RawMessage(key), Result: got.Result, Error: got.Error}
	}
	return res, nil
}

// readBody reads *body whole and puts back a reader of the same bytes.
func readBody(body *io.ReadCloser) ([]byte, error) {
	if *body == nil {
		return nil, nil
	}
	b, err := io.ReadAll(*body)
	(*body).Close()
	*body = io.NopCloser(bytes.NewReader(b))
	return b, err
}

// ErrNoAnswer is a call a replay holds no answer to.
var ErrNoAnswer = errors.New("the witness holds no answer to this call")

// replayer answers every request from a, as the node answered it.
type replayer struct{ a *Answers }

func (r replayer) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := readBody(&req.Body)
	if err != nil {
		return nil, err
	}
	calls, batch, err := messages(body)
	if err != nil {
		return nil, err
	}
	out := make([]message, len(calls))
	r.a.mu.Lock()
	for i, c := range calls {
		out[i] = message{Version: "2.0", ID: c.ID}
		key, err := callKey(c)
		x, ok := r.a.calls[key]
		switch {
		case err != nil || !ok:
			out[i].Error = &rpcError{Code: -32000, Message: fmt.Sprintf("%v: %s", ErrNoAnswer, key)}
		case x.Error != nil:
			out[i].Error = x.Error
		default:
			out[i].Result = x.Result
			if len(out[i].Result) == 0 {
				out[i].Result = json.RawMessage("null")
			}
		}
	}
	r.a.mu.Unlock()
	var b []byte
	if batch {
		b, err = json.Marshal(out)
	} else {
		b, err = json.Marshal(out[0])
	}
	if err != nil {
		return nil, err
	}
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(b)),
		ContentLength: int64(len(b)), Request: req}, nil
}
