//go:build windows

package uia

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"syscall"
	"time"
	"unicode/utf16"
	"unsafe"
)

// Synthesized input (SendInput) and screenshots (GDI): the fallbacks when
// no pattern does the job, and the journal's pictures.

var (
	procSendInput        = user32dll.NewProc("SendInput")
	procSetCursorPos     = user32dll.NewProc("SetCursorPos")
	procGetDC            = user32dll.NewProc("GetDC")
	procReleaseDC        = user32dll.NewProc("ReleaseDC")
	procGetWindowRect    = user32dll.NewProc("GetWindowRect")
	procGetSystemMetrics = user32dll.NewProc("GetSystemMetrics")

	gdi32dll                   = syscall.NewLazyDLL("gdi32.dll")
	procCreateCompatibleDC     = gdi32dll.NewProc("CreateCompatibleDC")
	procCreateCompatibleBitmap = gdi32dll.NewProc("CreateCompatibleBitmap")
	procSelectObject           = gdi32dll.NewProc("SelectObject")
	procBitBlt                 = gdi32dll.NewProc("BitBlt")
	procGetDIBits              = gdi32dll.NewProc("GetDIBits")
	procDeleteObject           = gdi32dll.NewProc("DeleteObject")
	procDeleteDC               = gdi32dll.NewProc("DeleteDC")
)

const (
	inputMouse    = 0
	inputKeyboard = 1

	mouseMove       = 0x0001
	mouseLeftDown   = 0x0002
	mouseLeftUp     = 0x0004
	mouseRightDown  = 0x0008
	mouseRightUp    = 0x0010
	mouseMiddleDown = 0x0020
	mouseMiddleUp   = 0x0040
	mouseWheel      = 0x0800

	keyExtended = 0x0001
	keyUp       = 0x0002
	keyUnicode  = 0x0004

	wheelDelta = 120
)

// mouseInput and keybdInput are INPUT structures of the two kinds, laid
// out as WinUser.h's: the union is a nested struct so that it is aligned
// as C aligns it (offset 8 on 64-bit, where it holds a ULONG_PTR), and the
// keyboard member is padded to the mouse member's size, so both have
// INPUT's size: 40 bytes on 64-bit Windows, 28 on 32-bit.
type mouseInput struct {
	typ uint32
	mi  struct {
		dx, dy    int32
		mouseData uint32
		flags     uint32
		time      uint32
		extra     uintptr
	}
}

type keybdInput struct {
	typ uint32
	ki  struct {
		vk    uint16
		scan  uint16
		flags uint32
		time  uint32
		extra uintptr
		_     [8]byte // KEYBDINPUT is 8 bytes shorter than MOUSEINPUT
	}
}

// Compile-time checks of the layouts against the Windows SDK's sizes
// (INPUT 40/28 bytes on 64/32-bit, MSLLHOOKSTRUCT 32/24, KBDLLHOOKSTRUCT
// 24/20, BITMAPINFOHEADER 40): a wrong size fails the build, on every
// GOARCH the windows check compiles.
const ptr64 = unsafe.Sizeof(uintptr(0)) / 8 // 1 on 64-bit, 0 on 32-bit

var (
	_ [unsafe.Sizeof(mouseInput{}) - (28 + 12*ptr64)]struct{}
	_ [(28 + 12*ptr64) - unsafe.Sizeof(mouseInput{})]struct{}
	_ [unsafe.Sizeof(keybdInput{}) - unsafe.Sizeof(mouseInput{})]struct{}
	_ [unsafe.Sizeof(mouseInput{}) - unsafe.Sizeof(keybdInput{})]struct{}
	_ [unsafe.Sizeof(msllHook{}) - (24 + 8*ptr64)]struct{}
	_ [(24 + 8*ptr64) - unsafe.Sizeof(msllHook{})]struct{}
	_ [unsafe.Sizeof(kbdllHook{}) - (20 + 4*ptr64)]struct{}
	_ [(20 + 4*ptr64) - unsafe.Sizeof(kbdllHook{})]struct{}
	_ [unsafe.Offsetof(bitmapInfoHeader{}.masks) - 40]struct{}
	_ [40 - unsafe.Offsetof(bitmapInfoHeader{}.masks)]struct{}
)

func sendMouse(flags, data uint32) error {
	in := mouseInput{typ: inputMouse}
	in.mi.flags, in.mi.mouseData = flags, data
	n, _, e := procSendInput.Call(1, uintptr(unsafe.Pointer(&in)), unsafe.Sizeof(in))
	if n != 1 {
		return fmt.Errorf("SendInput (mouse): %v (blocked by a window of higher integrity, or the secure desktop)", e)
	}
	return nil
}

func sendKeyInput(in keybdInput) error {
	n, _, e := procSendInput.Call(1, uintptr(unsafe.Pointer(&in)), unsafe.Sizeof(in))
	if n != 1 {
		return fmt.Errorf("SendInput (keyboard): %v", e)
	}
	return nil
}

// sendKey presses or releases a virtual key.
func sendKey(vk uint16, up bool) error {
	in := keybdInput{typ: inputKeyboard}
	in.ki.vk = vk
	if up {
		in.ki.flags |= keyUp
	}
	if extendedKey(vk) {
		in.ki.flags |= keyExtended
	}
	return sendKeyInput(in)
}

// extendedKey reports the keys that need KEYEVENTF_EXTENDEDKEY, without
// which the arrows and the editing keys act as their numeric-keypad twins.
func extendedKey(vk uint16) bool {
	switch vk {
	case vkLeft, vkUp, vkRight, vkDown, vkHome, vkEnd, vkPrior, vkNext, vkInsert, vkDelete, vkRControl, vkRMenu, vkLWin, vkRWin, vkApps:
		return true
	}
	return false
}

// sendUnit types one UTF-16 code unit.
func sendUnit(u uint16, up bool) error {
	in := keybdInput{typ: inputKeyboard}
	in.ki.scan, in.ki.flags = u, keyUnicode
	if up {
		in.ki.flags |= keyUp
	}
	return sendKeyInput(in)
}

func moveCursor(x, y float64) error {
	if ok, _, e := procSetCursorPos.Call(uintptr(int32(x)), uintptr(int32(y))); ok == 0 {
		return fmt.Errorf("SetCursorPos: %v", e)
	}
	return nil
}

// Click moves the pointer and clicks count times.
func (a *winAuto) Click(x, y float64, button string, count int) error {
	down, up := uint32(mouseLeftDown), uint32(mouseLeftUp)
	switch button {
	case "right":
		down, up = mouseRightDown, mouseRightUp
	case "middle":
		down, up = mouseMiddleDown, mouseMiddleUp
	}
	if err := moveCursor(x, y); err != nil {
		return err
	}
	for i := 0; i < count; i++ {
		if err := sendMouse(down, 0); err != nil {
			return err
		}
		if err := sendMouse(up, 0); err != nil {
			return err
		}
	}
	return nil
}

// MoveTo moves the pointer.
func (a *winAuto) MoveTo(x, y float64) error { return moveCursor(x, y) }

// Drag presses at one point, moves in steps (applications start a drag
// only after the pointer moved a few pixels) and releases at the other.
func (a *winAuto) Drag(x1, y1, x2, y2 float64) error {
	if err := moveCursor(x1, y1); err != nil {
		return err
	}
	if err := sendMouse(mouseLeftDown, 0); err != nil {
		return err
	}
	const steps = 10
	for i := 1; i <= steps; i++ {
		f := float64(i) / steps
		if err := moveCursor(x1+(x2-x1)*f, y1+(y2-y1)*f); err != nil {
			return err
		}
		time.Sleep(15 * time.Millisecond)
	}
	return sendMouse(mouseLeftUp, 0)
}

// Wheel turns the wheel over a point.
func (a *winAuto) Wheel(x, y float64, notches int) error {
	if err := moveCursor(x, y); err != nil {
		return err
	}
	return sendMouse(mouseWheel, uint32(int32(notches*wheelDelta)))
}

// Keys presses a chord: modifiers down, the key down and up, modifiers
// up in reverse order; Hold and Release press or release the modifiers
// alone.
func (a *winAuto) Keys(c Chord) error {
	if !c.Release {
		for _, m := range c.Mods {
			if err := sendKey(m, false); err != nil {
				return err
			}
		}
	}
	if !c.Hold && !c.Release {
		var err error
		if c.Key != 0 {
			if err = sendKey(c.Key, false); err == nil {
				err = sendKey(c.Key, true)
			}
		} else {
			for _, u := range utf16.Encode([]rune{c.Rune}) {
				if err = sendUnit(u, false); err == nil {
					err = sendUnit(u, true)
				}
			}
		}
		if err != nil {
			return err
		}
	}
	if !c.Hold {
		for i := len(c.Mods) - 1; i >= 0; i-- {
			if err := sendKey(c.Mods[i], true); err != nil {
				return err
			}
		}
	}
	return nil
}

// Type types text as Unicode keystrokes (independent of the keyboard
// layout); line breaks are Enter.
func (a *winAuto) Type(text string) error {
	for _, r := range text {
		var err error
		switch r {
		case '\r':
			continue
		case '\n':
			if err = sendKey(vkReturn, false); err == nil {
				err = sendKey(vkReturn, true)
			}
		default:
			for _, u := range utf16.Encode([]rune{r}) {
				if err = sendUnit(u, false); err == nil {
					err = sendUnit(u, true)
				}
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// bitmapInfoHeader is BITMAPINFOHEADER (with room for the color table
// GetDIBits may write for 32-bit bitmaps: three masks).
type bitmapInfoHeader struct {
	size                 uint32
	width, height        int32
	planes, bitCount     uint16
	compression, imgSize uint32
	xPels, yPels         int32
	clrUsed, clrImp      uint32
	masks                [3]uint32
}

// Screenshot captures a window's rectangle (or the virtual screen) from
// the screen with GDI and encodes it as PNG. Covered parts of the window
// show what covers them: it is a picture of the screen.
func (a *winAuto) Screenshot(window string) ([]byte, error) {
	var r struct{ l, t, r, b int32 }
	if window != "" {
		h, err := a.user.handle(window)
		if err != nil {
			return nil, err
		}
		if ok, _, e := procGetWindowRect.Call(h, uintptr(unsafe.Pointer(&r))); ok == 0 {
			return nil, fmt.Errorf("GetWindowRect: %v", e)
		}
	} else {
		const smXVirtual, smYVirtual, smCXVirtual, smCYVirtual = 76, 77, 78, 79
		x, _, _ := procGetSystemMetrics.Call(smXVirtual)
		y, _, _ := procGetSystemMetrics.Call(smYVirtual)
		w, _, _ := procGetSystemMetrics.Call(smCXVirtual)
		hgt, _, _ := procGetSystemMetrics.Call(smCYVirtual)
		r.l, r.t = int32(x), int32(y)
		r.r, r.b = r.l+int32(w), r.t+int32(hgt)
	}
	w, h := int(r.r-r.l), int(r.b-r.t)
	if w <= 0 || h <= 0 {
		return nil, errors.New("the window has no area on the screen")
	}
	screen, _, _ := procGetDC.Call(0)
	if screen == 0 {
		return nil, errors.New("GetDC failed")
	}
	defer procReleaseDC.Call(0, screen)
	mem, _, _ := procCreateCompatibleDC.Call(screen)
	defer procDeleteDC.Call(mem)
	bmp, _, _ := procCreateCompatibleBitmap.Call(screen, uintptr(w), uintptr(h))
	if mem == 0 || bmp == 0 {
		return nil, errors.New("cannot create a bitmap for the screenshot")
	}
	defer procDeleteObject.Call(bmp)
	old, _, _ := procSelectObject.Call(mem, bmp)
	const srcCopy, captureBlt = 0x00CC0020, 0x40000000
	ok, _, e := procBitBlt.Call(mem, 0, 0, uintptr(w), uintptr(h), screen, uintptr(r.l), uintptr(r.t), srcCopy|captureBlt)
	procSelectObject.Call(mem, old)
	if ok == 0 {
		return nil, fmt.Errorf("BitBlt: %v", e)
	}
	bi := bitmapInfoHeader{width: int32(w), height: -int32(h), planes: 1, bitCount: 32}
	bi.size = uint32(unsafe.Offsetof(bi.masks))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if n, _, e := procGetDIBits.Call(mem, bmp, 0, uintptr(h), uintptr(unsafe.Pointer(&img.Pix[0])), uintptr(unsafe.Pointer(&bi)), 0); n == 0 {
		return nil, fmt.Errorf("GetDIBits: %v", e)
	}
	for i := 0; i < len(img.Pix); i += 4 { // BGRA → RGBA, opaque
		img.Pix[i], img.Pix[i+2], img.Pix[i+3] = img.Pix[i+2], img.Pix[i], 255
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
