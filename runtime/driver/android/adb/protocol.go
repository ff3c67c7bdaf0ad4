package adb

import (
	"errors"
	"fmt"
	"io"
	"strconv"
)

// maxRequest is the largest payload four hex digits can announce.
const maxRequest = 0xffff

// encodeRequest frames one request: four lowercase hex digits of payload
// length, then the payload. The length counts bytes, not runes.
func encodeRequest(payload string) ([]byte, error) {
	if len(payload) > maxRequest {
		return nil, fmt.Errorf("adb: request of %d bytes is longer than the protocol's %d", len(payload), maxRequest)
	}
	return fmt.Appendf(nil, "%04x%s", len(payload), payload), nil
}

// writeRequest sends one framed request.
func writeRequest(w io.Writer, payload string) error {
	b, err := encodeRequest(payload)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// readStatus reads the server's four-byte answer to service: nil for OKAY,
// a *FailError for FAIL (with the server's message), ErrProtocol otherwise.
func readStatus(r io.Reader, service string) error {
	var st [4]byte
	if _, err := io.ReadFull(r, st[:]); err != nil {
		return err
	}
	switch string(st[:]) {
	case "OKAY":
		return nil
	case "FAIL":
		msg, err := readHexString(r)
		if err != nil {
			return err
		}
		return &FailError{Service: service, Message: string(msg)}
	}
	return fmt.Errorf("%w: answer %q to %q is neither OKAY nor FAIL (is this an adb server?)", ErrProtocol, st[:], service)
}

// readHex4 reads four hex digits, the protocol's length and version format.
func readHex4(r io.Reader) (int, error) {
	var h [4]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return 0, err
	}
	n, err := strconv.ParseUint(string(h[:]), 16, 16)
	if err != nil {
		return 0, fmt.Errorf("%w: %q is not four hex digits", ErrProtocol, h[:])
	}
	return int(n), nil
}

// readHexString reads a length-prefixed string (four hex digits, then bytes).
func readHexString(r io.Reader) ([]byte, error) {
	n, err := readHex4(r)
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return b, nil
}
