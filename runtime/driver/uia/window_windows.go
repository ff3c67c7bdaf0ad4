//go:build windows

package uia

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf16"
	"unsafe"

	"github.com/go-ole/go-ole"

	"github.com/cogflow/cogflow/runtime/driver"
)

// Win32 windows, launching and the clipboard.

var (
	user32dll   = syscall.NewLazyDLL("user32.dll")
	kernel32dll = syscall.NewLazyDLL("kernel32.dll")

	procEnumWindows               = user32dll.NewProc("EnumWindows")
	procGetWindowTextW            = user32dll.NewProc("GetWindowTextW")
	procGetWindowTextLengthW      = user32dll.NewProc("GetWindowTextLengthW")
	procIsWindowVisible           = user32dll.NewProc("IsWindowVisible")
	procIsWindow                  = user32dll.NewProc("IsWindow")
	procIsIconic                  = user32dll.NewProc("IsIconic")
	procGetWindow                 = user32dll.NewProc("GetWindow")
	procGetForegroundWindow       = user32dll.NewProc("GetForegroundWindow")
	procSetForegroundWindow       = user32dll.NewProc("SetForegroundWindow")
	procShowWindow                = user32dll.NewProc("ShowWindow")
	procPostMessageW              = user32dll.NewProc("PostMessageW")
	procGetWindowThreadProcessId  = user32dll.NewProc("GetWindowThreadProcessId")
	procOpenClipboard             = user32dll.NewProc("OpenClipboard")
	procCloseClipboard            = user32dll.NewProc("CloseClipboard")
	procEmptyClipboard            = user32dll.NewProc("EmptyClipboard")
	procGetClipboardData          = user32dll.NewProc("GetClipboardData")
	procSetClipboardData          = user32dll.NewProc("SetClipboardData")
	procSetProcessDpiAwarenessCtx = user32dll.NewProc("SetProcessDpiAwarenessContext")
	procGlobalAlloc               = kernel32dll.NewProc("GlobalAlloc")
	procGlobalFree                = kernel32dll.NewProc("GlobalFree")
	procGlobalLock                = kernel32dll.NewProc("GlobalLock")
	procGlobalUnlock              = kernel32dll.NewProc("GlobalUnlock")
	procGlobalSize                = kernel32dll.NewProc("GlobalSize")
	procRtlMoveMemory             = kernel32dll.NewProc("RtlMoveMemory")
)

const (
	gwOwner        = 4
	swRestore      = 9
	wmClose        = 0x0010
	cfUnicodeText  = 13
	gmemMoveable   = 0x0002
	dpiPerMonitor2 = ^uintptr(3) // DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2 = -4
)

// user32 groups the window functions; it has no state but the
// enumeration callback, made once (Windows callbacks are a finite
// resource).
type user32 struct{}

var (
	enumOnce  sync.Once
	enumCB    uintptr
	enumMu    sync.Mutex
	enumFound []uintptr
)

func newUser32() *user32 {
	// Per-monitor DPI awareness makes UIA's bounds, SendInput and
	// SetCursorPos speak the same physical pixels. It fails harmlessly
	// when the process already chose (or on Windows before 10 1703).
	procSetProcessDpiAwarenessCtx.Call(dpiPerMonitor2)
	enumOnce.Do(func() {
		enumCB = syscall.NewCallback(func(hwnd, _ uintptr) uintptr {
			enumFound = append(enumFound, hwnd)
			return 1
		})
	})
	return &user32{}
}

// handle parses a window id ("0x1a2b"); "" is the foreground window.
func (u *user32) handle(id string) (uintptr, error) {
	if id == "" {
		h, _, _ := procGetForegroundWindow.Call()
		if h == 0 {
			return 0, errors.New("no window is in the foreground")
		}
		return h, nil
	}
	h, err := strconv.ParseUint(strings.TrimPrefix(id, "0x"), 16, 64)
	if err != nil {
		return 0, fmt.Errorf("bad window id %q", id)
	}
	if ok, _, _ := procIsWindow.Call(uintptr(h)); ok == 0 {
		return 0, fmt.Errorf("window %s is gone", id)
	}
	return uintptr(h), nil
}

func windowID(h uintptr) string { return fmt.Sprintf("0x%x", h) }

func windowTitle(h uintptr) string {
	n, _, _ := procGetWindowTextLengthW.Call(h)
	if n == 0 {
		return ""
	}
	buf := make([]uint16, n+1)
	procGetWindowTextW.Call(h, uintptr(unsafe.Pointer(&buf[0])), n+1)
	return syscall.UTF16ToString(buf)
}

// topWindow is a top-level window and its process.
type topWindow struct {
	w   driver.Window
	pid uint32
}

// topWindows lists visible, unowned, titled top-level windows with their
// process ids, foreground first.
func topWindows() []topWindow {
	enumMu.Lock()
	enumFound = nil
	procEnumWindows.Call(enumCB, 0)
	hs := enumFound
	enumMu.Unlock()
	fg, _, _ := procGetForegroundWindow.Call()
	var out []topWindow
	for _, h := range hs {
		vis, _, _ := procIsWindowVisible.Call(h)
		owner, _, _ := procGetWindow.Call(h, gwOwner)
		title := windowTitle(h)
		if vis == 0 || owner != 0 || title == "" {
			continue
		}
		var pid uint32
		procGetWindowThreadProcessId.Call(h, uintptr(unsafe.Pointer(&pid)))
		e := topWindow{driver.Window{ID: windowID(h), Title: title}, pid}
		if h == fg {
			out = append([]topWindow{e}, out...)
		} else {
			out = append(out, e)
		}
	}
	return out
}

// Windows lists the visible top-level windows, foreground first.
func (a *winAuto) Windows() ([]driver.Window, error) {
	var ws []driver.Window
	for _, e := range topWindows() {
		ws = append(ws, e.w)
	}
	return ws, nil
}

// Activate restores a window and brings it to the foreground. Windows
// lets a process take the foreground only in some states; a refusal is an
// error, not a silent no-op.
func (a *winAuto) Activate(id string) error {
	h, err := a.user.handle(id)
	if err != nil {
		return err
	}
	if iconic, _, _ := procIsIconic.Call(h); iconic != 0 {
		procShowWindow.Call(h, swRestore)
	}
	// The foreground lock lets the process that sent the last input
	// event take the foreground. A mouse move of zero pixels is input
	// with no effect; the usual Alt press would put the window that ends
	// up in front into menu mode.
	sendMouse(mouseMove, 0)
	if ok, _, _ := procSetForegroundWindow.Call(h); ok == 0 {
		return fmt.Errorf("Windows refused to bring window %s to the foreground", id)
	}
	return nil
}

// CloseWindow posts WM_CLOSE: the application may ask to save first.
func (a *winAuto) CloseWindow(id string) error {
	h, err := a.user.handle(id)
	if err != nil {
		return err
	}
	if ok, _, e := procPostMessageW.Call(h, wmClose, 0, 0); ok == 0 {
		return fmt.Errorf("close window %s: %v", id, e)
	}
	return nil
}

var (
	clsidAppActivationManager = ole.NewGUID("{45BA127D-10A8-46EA-8AB7-56EA9078943C}")
	iidAppActivationManager   = ole.NewGUID("{2e941141-7f97-4756-ba1d-9decde894a3d}")
)

// isAUMID tells an AppUserModelID ("Microsoft.WindowsCalculator_8wekyb3d8bbwe!App")
// from a path or a command.
func isAUMID(app string) bool {
	return strings.Contains(app, "!") && !strings.ContainsAny(app, `\/ `) && !strings.HasSuffix(strings.ToLower(app), ".exe")
}

// Launch starts an application and waits (until ctx ends) for its first
// top-level window: one of its process, or else the first new window —
// a packaged app's window belongs to another process than the launcher.
func (a *winAuto) Launch(ctx context.Context, app string) (driver.Window, error) {
	before := map[string]bool{}
	for _, e := range topWindows() {
		before[e.w.ID] = true
	}
	var pid uint32
	if isAUMID(app) {
		err := a.th.do(func() error {
			m, err := create(clsidAppActivationManager, iidAppActivationManager)
			if err != nil {
				return err
			}
			defer m.release()
			id := newBSTR(app)
			defer id.free()
			return m.call("ActivateApplication", 3, id.arg(), 0, 0, uintptr(unsafe.Pointer(&pid)))
		})
		if err != nil {
			return driver.Window{}, fmt.Errorf("start %s: %w", app, err)
		}
	} else {
		cmd := exec.Command(app)
		if _, err := os.Stat(app); err != nil {
			// Not a file: a command with arguments, found on PATH.
			f := strings.Fields(app)
			cmd = exec.Command(f[0], f[1:]...)
		}
		if err := cmd.Start(); err != nil {
			return driver.Window{}, err
		}
		pid = uint32(cmd.Process.Pid)
		cmd.Process.Release()
	}
	for {
		for _, e := range topWindows() {
			if e.pid == pid || !before[e.w.ID] {
				return e.w, nil
			}
		}
		select {
		case <-ctx.Done():
			return driver.Window{}, fmt.Errorf("%s started but showed no window: %w", app, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// openClipboard opens the clipboard, retrying while another program holds
// it (clipboard managers open it on every change).
func openClipboard() error {
	for i := 0; i < 20; i++ {
		if ok, _, _ := procOpenClipboard.Call(0); ok != 0 {
			return nil
		}
		time.Sleep(25 * time.Millisecond)
	}
	return errors.New("the clipboard is held by another program")
}

// Clipboard reads the clipboard's Unicode text. Like every clipboard
// call it runs on the driver's locked COM thread: the clipboard is opened
// and closed by a thread, and a goroutine may change threads in between.
func (a *winAuto) Clipboard() (string, error) {
	var text string
	err := a.th.do(func() error {
		var err error
		text, err = readClipboard()
		return err
	})
	return text, err
}

// SetClipboard puts Unicode text on the clipboard (on the COM thread, as
// Clipboard).
func (a *winAuto) SetClipboard(text string) error {
	return a.th.do(func() error { return writeClipboard(text) })
}

func readClipboard() (string, error) {
	if err := openClipboard(); err != nil {
		return "", err
	}
	defer procCloseClipboard.Call()
	h, _, _ := procGetClipboardData.Call(cfUnicodeText)
	if h == 0 {
		return "", nil // no text on the clipboard
	}
	p, _, _ := procGlobalLock.Call(h)
	if p == 0 {
		return "", errors.New("cannot lock the clipboard's text")
	}
	defer procGlobalUnlock.Call(h)
	size, _, _ := procGlobalSize.Call(h)
	buf := make([]uint16, size/2+1)
	if size > 0 {
		// Copied with RtlMoveMemory: the text is not Go memory.
		procRtlMoveMemory.Call(uintptr(unsafe.Pointer(&buf[0])), p, size)
	}
	return syscall.UTF16ToString(buf), nil
}

func writeClipboard(text string) error {
	u := append(utf16.Encode([]rune(text)), 0)
	size := uintptr(len(u) * 2)
	if err := openClipboard(); err != nil {
		return err
	}
	defer procCloseClipboard.Call()
	procEmptyClipboard.Call()
	h, _, _ := procGlobalAlloc.Call(gmemMoveable, size)
	if h == 0 {
		return errors.New("cannot allocate the clipboard's text")
	}
	p, _, _ := procGlobalLock.Call(h)
	if p == 0 {
		procGlobalFree.Call(h)
		return errors.New("cannot lock the clipboard's text")
	}
	procRtlMoveMemory.Call(p, uintptr(unsafe.Pointer(&u[0])), size)
	procGlobalUnlock.Call(h)
	if ok, _, e := procSetClipboardData.Call(cfUnicodeText, h); ok == 0 {
		procGlobalFree.Call(h) // still ours: the clipboard did not take it
		return fmt.Errorf("set the clipboard: %v", e)
	}
	return nil
}
