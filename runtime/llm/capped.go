package llm

import (
	"errors"
	"io"
)

// ErrResponseTooLarge is the cause of an Error whose response body went
// over Config.MaxResponseBytes.
var ErrResponseTooLarge = errors.New("llm: the response is too large")

// cappedBody reads a response body up to a limit and fails past it, so
// that neither go-openai's decoder nor its error path (io.ReadAll of an
// error body) holds more than the limit in memory.
type cappedBody struct {
	io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, ErrResponseTooLarge
	}
	// Read one byte past the limit to tell "exactly the limit" from "more".
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	if int64(n) > b.left {
		n, b.left = int(b.left), -1
		return n, ErrResponseTooLarge
	}
	b.left -= int64(n)
	return n, err
}
