package adbtest

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
)

// protocolVersion is adb 1.0.41's: the real adb command kills and
// replaces a server that answers another version.
const protocolVersion = 41

// features lists what the simulated device supports, as an Android 13
// device would minus file sync and abb. With shell_v2 the adb command runs
// shell commands through the v2 protocol (shell,v2,raw:) and reports their
// exit status; clients that send plain shell: get the v1 stream.
const features = "shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,apex,fixed_push_symlink_timestamp,remount_shell"

const unauthorizedMsg = "device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\n" +
	"Try 'adb kill-server' if that seems wrong.\nOtherwise check for a confirmation dialog on your device."

// hostService answers one host request. It returns the device when the
// request switched the connection to it, nil when the connection is done.
func (s *Server) hostService(c net.Conn, req string) *device {
	switch {
	case req == "host:version":
		okay(c, fmt.Sprintf("%04x", protocolVersion))
	case req == "host:kill":
		okay(c) // the test owns the server's life; the connection just ends
	case req == "host:devices" || req == "host:devices-l":
		okay(c, s.deviceList(req == "host:devices-l"))
	case req == "host:host-features":
		okay(c, features)
	case strings.HasPrefix(req, "host:transport"):
		return s.switchTransport(c, strings.TrimPrefix(req, "host:transport"), false)
	case strings.HasPrefix(req, "host:tport:"):
		return s.switchTransport(c, strings.TrimPrefix(req, "host:tport:"), true)
	default:
		s.deviceQuery(c, req)
	}
	return nil
}

// deviceList is host:devices text; the long form pads the serial to 22
// columns as the real server does.
func (s *Server) deviceList(long bool) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, d := range s.devices {
		if !long {
			fmt.Fprintf(&b, "%s\t%s\n", d.serial, d.state)
			continue
		}
		fmt.Fprintf(&b, "%-22s %s", d.serial, d.state)
		if d.state == "device" {
			p := d.properties()
			fmt.Fprintf(&b, " product:%s model:%s device:%s", p["ro.product.name"], p["ro.product.model"], p["ro.product.device"])
		}
		fmt.Fprintf(&b, " transport_id:%d\n", d.transportID)
	}
	return b.String()
}

// switchTransport handles host:transport… (sel starts with ":SERIAL",
// "-any", "-usb", "-local" or "-id:N") and host:tport:… (sel is "serial:S",
// "any", "usb", "local"; the answer carries the transport id as 8
// little-endian bytes, which adb 1.0.41 uses for every device command).
func (s *Server) switchTransport(c net.Conn, sel string, tport bool) *device {
	var kind, arg string
	if tport {
		kind, arg, _ = strings.Cut(sel, ":")
	} else {
		kind, arg = strings.TrimPrefix(sel, "-"), ""
		if strings.HasPrefix(sel, ":") {
			kind, arg = "serial", sel[1:]
		} else if strings.HasPrefix(kind, "id:") {
			kind, arg = "id", kind[3:]
		}
	}
	d, msg := s.find(kind, arg)
	if d == nil {
		fail(c, msg)
		return nil
	}
	okay(c)
	if tport {
		var id [8]byte
		binary.LittleEndian.PutUint64(id[:], d.transportID)
		c.Write(id[:])
	}
	return d
}

// find selects a device as the real server does and, when none fits,
// returns its FAIL message.
func (s *Server) find(kind, arg string) (*device, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var found []*device
	for _, d := range s.devices {
		switch kind {
		case "serial":
			if d.serial == arg {
				found = append(found, d)
			}
		case "id":
			if strconv.FormatUint(d.transportID, 10) == arg {
				found = append(found, d)
			}
		case "any", "local": // the simulated devices are all emulators
			found = append(found, d)
		}
	}
	switch {
	case len(found) == 0 && kind == "serial":
		return nil, fmt.Sprintf("device '%s' not found", arg)
	case len(found) == 0 && kind == "id":
		return nil, fmt.Sprintf("no device with transport id '%s'", arg)
	case len(found) == 0 && kind == "usb":
		return nil, "no devices found"
	case len(found) == 0:
		return nil, "no devices/emulators found"
	case len(found) > 1:
		return nil, "more than one device/emulator"
	}
	switch d := found[0]; d.state {
	case "device":
		return d, ""
	case "unauthorized":
		return nil, unauthorizedMsg
	default:
		return nil, "device " + d.state
	}
}

// deviceQuery answers host-serial:S:Q, host-transport-id:N:Q, host-usb:Q,
// host-local:Q and host:Q for the queries features, get-state,
// get-serialno and get-devpath.
func (s *Server) deviceQuery(c net.Conn, req string) {
	kind, arg, query := "", "", ""
	switch {
	case strings.HasPrefix(req, "host-serial:"):
		rest := strings.TrimPrefix(req, "host-serial:")
		i := strings.LastIndexByte(rest, ':')
		kind, arg, query = "serial", rest[:max(i, 0)], rest[i+1:]
	case strings.HasPrefix(req, "host-transport-id:"):
		kind = "id"
		arg, query, _ = strings.Cut(strings.TrimPrefix(req, "host-transport-id:"), ":")
	case strings.HasPrefix(req, "host-usb:"):
		kind, query = "usb", strings.TrimPrefix(req, "host-usb:")
	case strings.HasPrefix(req, "host-local:"):
		kind, query = "local", strings.TrimPrefix(req, "host-local:")
	case strings.HasPrefix(req, "host:"):
		kind, query = "any", strings.TrimPrefix(req, "host:")
	}
	switch query {
	case "features", "get-state", "get-serialno", "get-devpath":
	default:
		fail(c, "unknown host service")
		return
	}
	d, msg := s.find(kind, arg)
	if d == nil {
		fail(c, msg)
		return
	}
	switch query {
	case "features":
		okay(c, features)
	case "get-state":
		okay(c, d.state)
	case "get-serialno":
		okay(c, d.serial)
	default:
		okay(c, "unknown")
	}
}

// deviceService runs shell:CMD, shell,ARGS:CMD (v2 when ARGS has v2) or
// exec:CMD on d, writing output until the command ends, then closes, as
// adbd does.
func (s *Server) deviceService(c net.Conn, d *device, req string) {
	svc, cmd, ok := strings.Cut(req, ":")
	name, args, _ := strings.Cut(svc, ",")
	switch {
	case !ok || name != "shell" && name != "exec":
		fail(c, "closed")
		return
	case strings.TrimSpace(cmd) == "":
		fail(c, "interactive shell is not simulated")
		return
	}
	okay(c)
	// The command runs while a reader watches for the client hanging up;
	// closing the connection afterwards ends the reader. Stdin (v1 bytes or
	// v2 packets) is read and dropped: no simulated command reads it.
	hangup := make(chan struct{})
	go func() {
		io.Copy(io.Discard, c)
		close(hangup)
	}()
	if name == "shell" && slices.Contains(strings.Split(args, ","), "v2") {
		status := runShell(d, cmd, &v2Writer{c, v2Stdout}, &v2Writer{c, v2Stderr}, hangup)
		(&v2Writer{c, v2Exit}).Write([]byte{byte(status)})
	} else {
		runShell(d, cmd, c, c, hangup)
	}
	c.Close()
	<-hangup
}

// Shell protocol v2 packet ids: each packet is the id byte, a 32-bit
// little-endian length and the data.
const (
	v2Stdout = 1
	v2Stderr = 2
	v2Exit   = 3
)

// v2Writer frames what is written to it as shell v2 packets of one id.
type v2Writer struct {
	w  io.Writer
	id byte
}

func (v *v2Writer) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	pkt := make([]byte, 5, 5+len(p))
	pkt[0] = v.id
	binary.LittleEndian.PutUint32(pkt[1:], uint32(len(p)))
	if _, err := v.w.Write(append(pkt, p...)); err != nil {
		return 0, err
	}
	return len(p), nil
}
