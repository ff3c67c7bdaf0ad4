package adb

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestEncodeRequest(t *testing.T) {
	tests := []struct {
		payload string
		want    string
		wantErr bool
	}{
		{"host:version", "000chost:version", false},
		{"", "0000", false},
		{"shell:echo Zoë", "000fshell:echo Zoë", false}, // length counts bytes
		{strings.Repeat("x", 0xffff), "ffff" + strings.Repeat("x", 0xffff), false},
		{strings.Repeat("x", 0x10000), "", true},
	}
	for _, tt := range tests {
		got, err := encodeRequest(tt.payload)
		if (err != nil) != tt.wantErr {
			t.Errorf("encodeRequest(%.20q): err = %v, want error %v", tt.payload, err, tt.wantErr)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("encodeRequest(%.20q) = %.24q, want %.24q", tt.payload, got, tt.want)
		}
	}
}

func TestReadStatus(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantMsg string // FailError message, "" when no FailError
		wantIs  error  // sentinel the error must match; nil means success
	}{
		{"okay", "OKAY", "", nil},
		{"okay with trailing data", "OKAY0004", "", nil},
		{"fail", "FAIL0014device 'X' not found", "device 'X' not found", ErrDeviceNotFound},
		{"fail offline", "FAIL000edevice offline", "device offline", ErrDeviceOffline},
		{"fail more", "FAIL001dmore than one device/emulator", "more than one device/emulator", ErrMoreThanOneDevice},
		{"garbage", "HTTP/1.1 400", "", ErrProtocol},
		{"short", "OK", "", io.ErrUnexpectedEOF},
		{"empty", "", "", io.EOF},
		{"fail bad length", "FAILzzzz", "", ErrProtocol},
		{"fail truncated", "FAIL0020device", "", io.ErrUnexpectedEOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := readStatus(strings.NewReader(tt.in), "host:transport:X")
			if tt.wantIs == nil {
				if err != nil {
					t.Fatalf("readStatus(%q) = %v, want nil", tt.in, err)
				}
				return
			}
			if !errors.Is(err, tt.wantIs) {
				t.Fatalf("readStatus(%q) = %v, want errors.Is %v", tt.in, err, tt.wantIs)
			}
			var fail *FailError
			if errors.As(err, &fail) != (tt.wantMsg != "") {
				t.Fatalf("readStatus(%q) = %#v, FailError expected: %v", tt.in, err, tt.wantMsg != "")
			}
			if fail != nil && (fail.Message != tt.wantMsg || fail.Service != "host:transport:X") {
				t.Errorf("FailError = %+v, want message %q", fail, tt.wantMsg)
			}
		})
	}
}

func TestReadHexString(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr error
	}{
		{"0004002900", "0029", nil},
		{"0000", "", nil},
		{"000aabc", "", io.ErrUnexpectedEOF},
		{"00g1x", "", ErrProtocol},
		{"", "", io.EOF},
	}
	for _, tt := range tests {
		got, err := readHexString(bytes.NewBufferString(tt.in))
		if !errors.Is(err, tt.wantErr) || (err == nil && tt.wantErr != nil) {
			t.Errorf("readHexString(%q) error = %v, want %v", tt.in, err, tt.wantErr)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("readHexString(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFailErrorIs(t *testing.T) {
	sentinels := []error{ErrDeviceNotFound, ErrDeviceOffline, ErrDeviceUnauthorized, ErrMoreThanOneDevice}
	tests := []struct {
		msg  string
		want error // the only sentinel that must match; nil for none
	}{
		{"device 'emulator-5554' not found", ErrDeviceNotFound},
		{"device not found", ErrDeviceNotFound},
		{"no devices/emulators found", ErrDeviceNotFound},
		{"device offline", ErrDeviceOffline},
		{"device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set", ErrDeviceUnauthorized},
		{"more than one device/emulator", ErrMoreThanOneDevice},
		{"unknown host service", nil},
		{"closed", nil},
	}
	for _, tt := range tests {
		err := error(&FailError{Service: "s", Message: tt.msg})
		for _, s := range sentinels {
			if got := errors.Is(err, s); got != (s == tt.want) {
				t.Errorf("errors.Is(FailError %q, %v) = %v", tt.msg, s, got)
			}
		}
		if !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("Error() = %q does not pass the server's message %q through", err, tt.msg)
		}
	}
}
