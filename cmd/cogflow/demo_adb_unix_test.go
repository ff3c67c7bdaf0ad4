//go:build unix

package main

import (
	"context"
	"net"
	"os/exec"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver/android/adb"
)

// TestDemoAndroidCtrlC starts `cogflow demo android` as a process of its
// own, checks that an adb client sees the simulated phone, and stops it
// with SIGINT, as Ctrl-C does: it exits 0 and frees its port.
func TestDemoAndroidCtrlC(t *testing.T) {
	bin := cogflowBinary(t, t.TempDir())
	cmd := exec.Command(bin, "demo", "android", "--addr", "127.0.0.1:0")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan int, 1)
	go func() {
		_ = cmd.Wait()
		exited <- cmd.ProcessState.ExitCode()
	}()
	defer cmd.Process.Kill() // after a failure; once it has exited, harmless

	addr := waitLog(t, &stderr, regexp.MustCompile(`--adb (\S+) --serial`), exited)[1]
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	devices, err := (&adb.Client{Addr: addr}).Devices(ctx)
	if err != nil || len(devices) != 1 || devices[0].Serial != "emulator-5554" || devices[0].State != "device" {
		t.Fatalf("adb devices at %s: %+v, %v; want emulator-5554 in state device", addr, devices, err)
	}

	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-exited:
		if code != exitOK {
			t.Errorf("exit code %d after SIGINT, want 0\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("demo android did not stop on SIGINT\n%s", stderr.String())
	}
	if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		conn.Close()
		t.Error("the adb server still accepts connections after SIGINT")
	}
}
