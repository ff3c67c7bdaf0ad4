//go:build windows

package uia

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/cogflow/cogflow/runtime/trace"
)

// The recorder's hooks: WH_MOUSE_LL and WH_KEYBOARD_LL on a dedicated,
// locked thread that pumps messages (low-level hooks are called on the
// installing thread's message loop). Injected input is recorded too:
// VNC servers and remote tools deliver a person's input with SendInput.
// The callbacks only copy the event into a channel and return: Windows drops a hook that answers slowly,
// and UI Automation calls from inside a hook can deadlock with the very
// application being clicked. The recorder's goroutine does the UIA work.

var (
	procSetWindowsHookExW   = user32dll.NewProc("SetWindowsHookExW")
	procUnhookWindowsHookEx = user32dll.NewProc("UnhookWindowsHookEx")
	procCallNextHookEx      = user32dll.NewProc("CallNextHookEx")
	procGetMessageW         = user32dll.NewProc("GetMessageW")
	procPostThreadMessageW  = user32dll.NewProc("PostThreadMessageW")
	procGetAsyncKeyState    = user32dll.NewProc("GetAsyncKeyState")
	procGetKeyState         = user32dll.NewProc("GetKeyState")
	procToUnicodeEx         = user32dll.NewProc("ToUnicodeEx")
	procGetKeyboardLayout   = user32dll.NewProc("GetKeyboardLayout")
	procGetCurrentThreadId  = kernel32dll.NewProc("GetCurrentThreadId")
)

const (
	whKeyboardLL  = 13
	whMouseLL     = 14
	wmQuit        = 0x0012
	wmKeyDown     = 0x0100
	wmSysKeyDown  = 0x0104
	wmLButtonDown = 0x0201
	wmRButtonDown = 0x0204
	wmMButtonDown = 0x0207
)

// msllHook and kbdllHook are MSLLHOOKSTRUCT and KBDLLHOOKSTRUCT.
type msllHook struct {
	x, y      int32
	mouseData uint32
	flags     uint32
	time      uint32
	extra     uintptr
}

type kbdllHook struct {
	vk, scan, flags, time uint32
	extra                 uintptr
}

// hooks is the one recording's hook state: Windows calls the callbacks
// with no context of ours, so it lives in package variables.
var (
	hookMu     sync.Mutex
	hookEvents chan hookEvent
	hookStop   Chord
	hookOnce   sync.Once
	mouseCB    uintptr
	keyCB      uintptr
)

// copyStruct copies a hook structure out of Windows' memory.
func copyStruct(dst unsafe.Pointer, src, size uintptr) {
	procRtlMoveMemory.Call(uintptr(dst), src, size)
}

func keyDown(vk uint16) bool {
	s, _, _ := procGetAsyncKeyState.Call(uintptr(vk))
	return s&0x8000 != 0
}

func emit(ev hookEvent) {
	select {
	case hookEvents <- ev:
	default: // the recorder is behind: dropping beats stalling all input
	}
}

func mouseHook(code, wparam, lparam uintptr) uintptr {
	if int32(code) >= 0 {
		button := map[uintptr]string{wmLButtonDown: "left", wmRButtonDown: "right", wmMButtonDown: "middle"}[wparam]
		if button != "" {
			var m msllHook
			copyStruct(unsafe.Pointer(&m), lparam, unsafe.Sizeof(m))
			emit(hookEvent{Mouse: true, Button: button, X: int(m.x), Y: int(m.y), Time: time.Now(),
				Ctrl: keyDown(vkControl), Alt: keyDown(vkMenu), Shift: keyDown(vkShift), Meta: keyDown(vkLWin) || keyDown(vkRWin)})
		}
	}
	r, _, _ := procCallNextHookEx.Call(0, code, wparam, lparam)
	return r
}

func keyboardHook(code, wparam, lparam uintptr) uintptr {
	if int32(code) >= 0 && (wparam == wmKeyDown || wparam == wmSysKeyDown) {
		var k kbdllHook
		copyStruct(unsafe.Pointer(&k), lparam, unsafe.Sizeof(k))
		ev := hookEvent{VK: uint16(k.vk), Time: time.Now(),
			Ctrl: keyDown(vkControl), Alt: keyDown(vkMenu), Shift: keyDown(vkShift), Meta: keyDown(vkLWin) || keyDown(vkRWin)}
		ev.Char = typedChar(k, ev)
		emit(ev)
		if stopPressed(ev) {
			return 1 // swallowed: the application never sees the stop chord
		}
	}
	r, _, _ := procCallNextHookEx.Call(0, code, wparam, lparam)
	return r
}

// typedChar is what the key types in the foreground window's keyboard
// layout, from the modifier state the hook sees (GetKeyboardState would
// give this thread's, not the user's). Flag 4 keeps ToUnicodeEx from
// changing the keyboard state, so dead keys still work for the user.
func typedChar(k kbdllHook, ev hookEvent) string {
	var state [256]byte
	if ev.Shift {
		state[vkShift] = 0x80
	}
	if ev.Ctrl {
		state[vkControl] = 0x80
	}
	if ev.Alt {
		state[vkMenu] = 0x80
	}
	if caps, _, _ := procGetKeyState.Call(vkCapital); caps&1 != 0 {
		state[vkCapital] = 1
	}
	fg, _, _ := procGetForegroundWindow.Call()
	tid, _, _ := procGetWindowThreadProcessId.Call(fg, 0)
	layout, _, _ := procGetKeyboardLayout.Call(tid)
	var buf [8]uint16
	n, _, _ := procToUnicodeEx.Call(uintptr(k.vk), uintptr(k.scan), uintptr(unsafe.Pointer(&state[0])),
		uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), 4, layout)
	if int32(n) <= 0 || buf[0] < 0x20 && buf[0] != '\r' {
		return ""
	}
	return syscall.UTF16ToString(buf[:n])
}

func stopPressed(ev hookEvent) bool {
	r := recorder{stop: hookStop}
	return r.isStop(ev)
}

// hookThread runs the hooks until stopped.
type hookThread struct {
	tid  uintptr
	done chan struct{}
}

// startHooks installs the hooks on a new locked thread.
func startHooks(events chan hookEvent, stop Chord) (*hookThread, error) {
	if !hookMu.TryLock() {
		return nil, errors.New("uia: record: another recording is running in this process")
	}
	hookEvents, hookStop = events, stop
	hookOnce.Do(func() {
		mouseCB = syscall.NewCallback(mouseHook)
		keyCB = syscall.NewCallback(keyboardHook)
	})
	h := &hookThread{done: make(chan struct{})}
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		defer close(h.done)
		h.tid, _, _ = procGetCurrentThreadId.Call()
		m, _, e1 := procSetWindowsHookExW.Call(whMouseLL, mouseCB, 0, 0)
		k, _, e2 := procSetWindowsHookExW.Call(whKeyboardLL, keyCB, 0, 0)
		if m == 0 || k == 0 {
			procUnhookWindowsHookEx.Call(m)
			procUnhookWindowsHookEx.Call(k)
			errc <- fmt.Errorf("uia: record: SetWindowsHookEx: %v %v", e1, e2)
			return
		}
		errc <- nil
		var msg [48]byte // MSG
		for {
			r, _, _ := procGetMessageW.Call(uintptr(unsafe.Pointer(&msg[0])), 0, 0, 0)
			if int32(r) <= 0 { // WM_QUIT or an error
				break
			}
		}
		procUnhookWindowsHookEx.Call(m)
		procUnhookWindowsHookEx.Call(k)
	}()
	if err := <-errc; err != nil {
		<-h.done
		hookMu.Unlock()
		return nil, err
	}
	return h, nil
}

// stop removes the hooks and ends their thread.
func (h *hookThread) stop() {
	procPostThreadMessageW.Call(h.tid, wmQuit, 0, 0)
	<-h.done
	hookMu.Unlock()
}

// Record records a demonstration on the Windows desktop until the stop
// chord (default Ctrl+Shift+X) is pressed or ctx ends, and returns the
// trace: clicks on the elements under the pointer with snapshots of the
// foreground window, keys on the focused element, typing as input events.
func Record(ctx context.Context, opts RecordOptions) (*trace.Trace, error) {
	stop := Chord{}
	if opts.StopChord != "none" {
		s := opts.StopChord
		if s == "" {
			s = DefaultStopChord
		}
		c, err := ParseChord(s)
		if err != nil {
			return nil, err
		}
		stop = c
	}
	a, err := newWinAuto()
	if err != nil {
		return nil, err
	}
	defer a.Close()
	if opts.App != "" {
		w, err := a.Launch(ctx, opts.App)
		if err != nil {
			return nil, err
		}
		if err := a.Activate(w.ID); err != nil {
			return nil, err
		}
	}
	events := make(chan hookEvent, 1024)
	h, err := startHooks(events, stop)
	if err != nil {
		return nil, err
	}
	defer h.stop()
	return record(ctx, a, events, opts, time.Now())
}
