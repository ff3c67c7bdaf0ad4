package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"

	"github.com/cogflow/cogflow/runtime/driver/browser"
	"github.com/cogflow/cogflow/runtime/trace"
)

// session is one headless Chromium: the browser driver records in it and
// runs the workflows; the scripted person acts in it through a second
// DevTools connection, with mouse and keyboard events only.
type session struct {
	l    *launcher.Launcher
	b    *rod.Browser
	d    *browser.Driver
	temp string
}

func newSession(ctx context.Context, chrome string) (*session, error) {
	bin, err := browser.FindChromium(chrome)
	if err != nil {
		return nil, err
	}
	temp, err := os.MkdirTemp("", "cogflow-eval-apifirst-")
	if err != nil {
		return nil, err
	}
	s := &session{temp: temp}
	// Never a download: the system Chromium, headless, as the tests run it.
	s.l = launcher.New().Context(ctx).Bin(bin).Headless(true).NoSandbox(true).UserDataDir(filepath.Join(temp, "profile")).
		Set("disable-gpu").Set("no-first-run").Set("disable-background-networking").Set("disable-component-update").
		Set("window-size", "1280,900")
	u, err := s.l.Launch()
	if err != nil {
		s.close()
		return nil, fmt.Errorf("launch Chromium: %w", err)
	}
	s.b = rod.New().ControlURL(u)
	if err := s.b.Connect(); err != nil {
		s.close()
		return nil, err
	}
	s.d, err = browser.Start(ctx, driverOptions("", u))
	if err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *session) close() {
	if s.d != nil {
		_ = s.d.Close()
	}
	if s.b != nil {
		_ = s.b.Close()
	}
	if s.l != nil {
		s.l.Kill()
		s.l.Cleanup()
	}
	_ = os.RemoveAll(s.temp)
}

// demonstrate records the keyword task done by the scripted person, as
// cmd/cogflow's TestE2ERecordKeyword does it: the wiki's search box,
// "Kilimanjaro", Enter, the result of that title, the notes page (typed
// into the address bar), a line added to the notes.
func (s *session) demonstrate(ctx context.Context, base string) (*trace.Trace, error) {
	start := base + "/wiki"
	type rec struct {
		tr  *trace.Trace
		err error
	}
	done := make(chan rec, 1)
	go func() {
		tr, err := s.d.Record(ctx, start, browser.RecordOptions{Warn: func(error) {}})
		done <- rec{tr, err}
	}()
	p, err := s.recordedPage(start)
	if err != nil {
		return nil, err
	}
	h := &person{p: p}
	time.Sleep(500 * time.Millisecond) // the recorder script is installed
	h.click(`#q`)
	h.typeText("Kilimanjaro")
	h.press(input.Enter)
	h.wait(`ul.results`)
	time.Sleep(300 * time.Millisecond)
	h.click(`ul.results a[href="/wiki/Kilimanjaro"]`)
	h.wait(`#intro`)
	time.Sleep(300 * time.Millisecond)
	if h.err == nil {
		h.err = p.Navigate(base + "/notes") // typed into the address bar
	}
	h.wait(`#notes`)
	time.Sleep(500 * time.Millisecond)
	h.click(`#notes`)
	h.press(input.End)
	h.typeText("Climbed in 1889.")
	time.Sleep(500 * time.Millisecond)
	if h.err == nil {
		h.err = p.KeyActions().Press(input.ControlLeft, input.ShiftLeft).Type(input.KeyX).Do() // the stop chord
	}
	if h.err != nil {
		return nil, h.err
	}
	select {
	case r := <-done:
		return r.tr, r.err
	case <-time.After(20 * time.Second):
		return nil, fmt.Errorf("the recording did not end")
	}
}

// recordedPage finds the tab the recorder opened on url.
func (s *session) recordedPage(url string) (*rod.Page, error) {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if pages, err := s.b.Pages(); err == nil {
			for _, p := range pages {
				if info, err := p.Info(); err == nil && info.URL == url {
					return p, nil
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil, fmt.Errorf("the recorded page %s did not open", url)
}

// person acts through input events only; the first error sticks.
type person struct {
	p   *rod.Page
	err error
}

func (h *person) wait(sel string) *rod.Element {
	if h.err != nil {
		return nil
	}
	el, err := h.p.Timeout(10 * time.Second).Element(sel)
	if err != nil {
		h.err = fmt.Errorf("waiting for %s: %w", sel, err)
		return nil
	}
	return el.CancelTimeout()
}

// click moves the mouse to the middle of the element and clicks.
func (h *person) click(sel string) {
	el := h.wait(sel)
	if el == nil {
		return
	}
	_ = el.Timeout(5 * time.Second).ScrollIntoView()
	shape, err := el.Timeout(5 * time.Second).Shape()
	if err != nil || len(shape.Quads) == 0 {
		h.err = fmt.Errorf("shape of %s: %v", sel, err)
		return
	}
	b := shape.Box()
	if err := h.p.Mouse.MoveTo(proto.Point{X: b.X + b.Width/2, Y: b.Y + b.Height/2}); err != nil {
		h.err = err
		return
	}
	if err := h.p.Mouse.Click(proto.InputMouseButtonLeft, 1); err != nil {
		h.err = err
	}
	time.Sleep(200 * time.Millisecond)
}

func (h *person) typeText(s string) {
	for _, r := range s {
		if h.err != nil {
			return
		}
		h.err = h.p.Keyboard.Type(input.Key(r))
	}
	time.Sleep(200 * time.Millisecond)
}

func (h *person) press(k input.Key) {
	if h.err != nil {
		return
	}
	h.err = h.p.Keyboard.Type(k)
	time.Sleep(200 * time.Millisecond)
}
