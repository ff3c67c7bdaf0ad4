// Package adb is a client of the ADB server's host protocol: the TCP protocol
// that the `adb` command itself speaks to the adb server (127.0.0.1:5037 by
// default). Talking to the server rather than running the `adb` binary lets
// cogflow use a local server, a remote one (adb -a / ssh tunnels) or a device
// farm that exposes the same protocol, and gives typed errors instead of
// scraped stderr.
//
// The protocol in brief: every request is four hex digits of length followed
// by the payload ("000chost:version"). The server answers "OKAY" or "FAIL"
// followed by a length-prefixed message. Host services (host:version,
// host:devices-l) answer with one length-prefixed string and close. To reach a
// device a client first switches the connection to a transport
// (host:transport:SERIAL or host:transport-any), then sends a device service
// (shell:CMD, exec:CMD) on the same connection; after its OKAY the connection
// carries the command's raw output until the device closes it.
//
// Errors are typed: errors.Is(err, ErrNoServer) when no server listens,
// ErrDeviceNotFound, ErrDeviceOffline, ErrDeviceUnauthorized and
// ErrMoreThanOneDevice for the server's FAIL answers (the *FailError keeps the
// server's own message), ErrConnectionLost when a connection breaks in the
// middle of a request, and the context's error when the context ends first.
package adb
