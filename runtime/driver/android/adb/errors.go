package adb

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors; test for them with errors.Is.
var (
	// ErrNoServer means no adb server accepted the connection. The wrapping
	// error names the address and says how to start or point at a server.
	ErrNoServer = errors.New("no adb server")
	// ErrConnectionLost means the server or device closed or reset the
	// connection before the request was answered, or reset it mid-output.
	ErrConnectionLost = errors.New("adb connection lost")
	// ErrProtocol means the server sent something that is not the ADB host
	// protocol (a wrong port, or a proxy speaking something else).
	ErrProtocol = errors.New("adb protocol error")
	// ErrDeviceNotFound matches the server's "device 'X' not found" and
	// "no devices/emulators found" answers.
	ErrDeviceNotFound = errors.New("adb device not found")
	// ErrDeviceOffline matches the server's "device offline" answer.
	ErrDeviceOffline = errors.New("adb device offline")
	// ErrDeviceUnauthorized matches "device unauthorized": the person has not
	// accepted the RSA key prompt on the device yet.
	ErrDeviceUnauthorized = errors.New("adb device unauthorized")
	// ErrMoreThanOneDevice matches "more than one device/emulator": a
	// request without a serial while several devices are attached.
	ErrMoreThanOneDevice = errors.New("more than one adb device")
)

// FailError is a FAIL answer of the adb server. Message is the server's text,
// unchanged, because it is what a person would see from the adb command.
type FailError struct {
	// Service is the request that failed, e.g. "host:transport:emulator-5554".
	Service string
	// Message is the server's explanation, e.g. "device 'X' not found".
	Message string
}

// Error returns the server's message and the failed request.
func (e *FailError) Error() string {
	return fmt.Sprintf("adb: %s (request %q)", e.Message, e.Service)
}

// Is lets errors.Is classify the server's message into the sentinel errors,
// so callers need not match text themselves.
func (e *FailError) Is(target error) bool {
	m := strings.ToLower(e.Message)
	switch target {
	case ErrDeviceNotFound:
		return strings.Contains(m, "not found") && strings.Contains(m, "device") ||
			strings.HasPrefix(m, "no devices")
	case ErrDeviceOffline:
		return strings.Contains(m, "offline")
	case ErrDeviceUnauthorized:
		return strings.Contains(m, "unauthorized")
	case ErrMoreThanOneDevice:
		return strings.HasPrefix(m, "more than one")
	}
	return false
}

// noServerError reports that dialing addr failed. It wraps both ErrNoServer
// and the dial error, so errors.Is also finds syscall.ECONNREFUSED.
func noServerError(addr string, err error) error {
	return fmt.Errorf("%w at %s (%w); start one with `adb start-server` or pass --adb HOST:PORT of a running server",
		ErrNoServer, addr, err)
}
