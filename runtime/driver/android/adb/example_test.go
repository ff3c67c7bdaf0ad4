package adb_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/cogflow/cogflow/runtime/driver/android/adb"
	"github.com/cogflow/cogflow/runtime/driver/android/adbtest"
)

// Example lists the devices of a server (here the simulated one; a real
// one at adb.DefaultAddr when Addr is empty) and runs commands on one.
func Example() {
	srv, err := adbtest.NewServer(nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ctx := context.Background()
	c := &adb.Client{Addr: srv.Addr()}
	devs, _ := c.Devices(ctx)
	for _, d := range devs {
		fmt.Println(d.Serial, d.State, d.Model)
	}
	dev := c.Device(devs[0].Serial)
	out, _ := dev.Shell(ctx, "input text "+adb.QuoteShell("it's")+"; wm size")
	fmt.Print(string(out))
	_, err = c.Device("nope").Shell(ctx, "echo")
	fmt.Println(errors.Is(err, adb.ErrDeviceNotFound), err)
	// Output:
	// emulator-5554 device sdk_gphone64_x86_64
	// Physical size: 1080x2400
	// true adb: device 'nope' not found (request "host:transport:nope")
}
