package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/cogflow/cogflow/runtime/driver/android/adbtest"
)

// androidExample is the workflow `demo android` says how to run.
const androidExample = "examples/android_add_contact.cog"

// androidDemoAddr is where `demo android` listens without --addr: next to
// the adb server's own port (5037), so that a real adb server, if one
// runs, keeps its port and its devices.
const androidDemoAddr = "127.0.0.1:5038"

// demoPhone makes the app of the phone `demo android` serves; tests keep
// it to look at the contacts a run added.
var demoPhone = adbtest.NewApp

// contactsPoll is how often `demo android` looks for changed contacts.
const contactsPoll = 200 * time.Millisecond

// demoAndroid serves adbtest's simulated phone as an adb server until
// Ctrl-C, so that the Android example runs end to end without a device:
// `cogflow run` (and the real `adb -P PORT`) talk to it as to any adb
// server. It logs each contact added or removed, the only way to see
// what a run did on a device with no screen.
func (c *cli) demoAndroid(addr string) int {
	srv, err := adbtest.Listen(addr, demoPhone())
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow demo: %v (is an adb server listening there? --addr 127.0.0.1:0 picks a free port)\n", err)
		return exitUsage
	}
	defer srv.Close()
	ctx, stop := demoSignals()
	defer stop()

	at := dialAddr(srv.Addr())
	fmt.Fprintf(c.stderr, "cogflow demo: serving a simulated Android phone (serial %s, app %s) as an adb server at %s (Ctrl-C stops)\n",
		srv.Serial, adbtest.ContactsPackage, at)
	fmt.Fprintf(c.stderr, "cogflow demo: run the Android example on it: cogflow run %s --adb %s --serial %s\n",
		androidExample, at, srv.Serial)
	watchContacts(ctx, srv.App(), c.stderr)
	return exitOK
}

// dialAddr is the address a client dials for a server listening at addr:
// a server on every interface ("0.0.0.0:5038") is reached through
// 127.0.0.1.
func dialAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// watchContacts logs the contacts added to and removed from app until ctx
// ends. Contacts are counted, not just compared: a second "Ada Lovelace"
// with the same phone is a new contact too.
func watchContacts(ctx context.Context, app *adbtest.App, w io.Writer) {
	tick := time.NewTicker(contactsPoll)
	defer tick.Stop()
	seen := app.Contacts()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		now := app.Contacts()
		for _, ct := range minus(now, seen) {
			fmt.Fprintf(w, "cogflow demo: the phone has a new contact: %s, %s\n", ct.Name, ct.Phone)
		}
		for _, ct := range minus(seen, now) {
			fmt.Fprintf(w, "cogflow demo: the phone no longer has the contact %s, %s\n", ct.Name, ct.Phone)
		}
		seen = now
	}
}

// minus returns the contacts of a that b does not have as often, in a's
// order.
func minus(a, b []adbtest.Contact) []adbtest.Contact {
	left := map[adbtest.Contact]int{}
	for _, ct := range b {
		left[ct]++
	}
	var out []adbtest.Contact
	for _, ct := range a {
		if left[ct] > 0 {
			left[ct]--
			continue
		}
		out = append(out, ct)
	}
	return out
}
