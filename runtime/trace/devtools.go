package trace

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SourceDevTools is the Source of traces converted from Chrome DevTools
// Recorder recordings.
const SourceDevTools = "chrome-devtools-recorder"

// ImportInterval is the time between consecutive events of an imported
// recording, in milliseconds: Recorder steps carry no times, and spacing
// them keeps rules that look at intervals (a double click is two clicks in
// quick succession) from seeing coincidences.
const ImportInterval = 1000

// Warning is a Recorder step, or part of one, that FromDevTools could not
// represent in the trace. Nothing is dropped silently: every step that
// does not become an event is a warning, with the step's JSON.
type Warning struct {
	Step int    // index in the recording's "steps"
	Type string // the step's type
	Msg  string
	// Raw is the step as recorded.
	Raw json.RawMessage
}

func (w Warning) String() string {
	return fmt.Sprintf("steps[%d] (%s): %s", w.Step, w.Type, w.Msg)
}

// devtoolsStep holds the fields of Recorder steps (puppeteer/replay's
// schema) that the conversion uses; other fields are ignored.
type devtoolsStep struct {
	Type           string            `json:"type"`
	Target         string            `json:"target"`
	Frame          []int             `json:"frame"`
	Selectors      []json.RawMessage `json:"selectors"`
	OffsetX        float64           `json:"offsetX"`
	OffsetY        float64           `json:"offsetY"`
	Button         string            `json:"button"`
	URL            string            `json:"url"`
	Value          string            `json:"value"`
	Key            string            `json:"key"`
	X              float64           `json:"x"`
	Y              float64           `json:"y"`
	Width          int               `json:"width"`
	Height         int               `json:"height"`
	Scale          float64           `json:"deviceScaleFactor"`
	Mobile         bool              `json:"isMobile"`
	Timeout        int64             `json:"timeout"`
	Count          *int              `json:"count"`
	Operator       string            `json:"operator"`
	Visible        *bool             `json:"visible"`
	Properties     map[string]any    `json:"properties"`
	Attrs          map[string]string `json:"attributes"`
	Expression     string            `json:"expression"`
	AssertedEvents []struct {
		Type  string `json:"type"`
		URL   string `json:"url"`
		Title string `json:"title"`
	} `json:"assertedEvents"`
}

// FromDevTools converts a Chrome DevTools Recorder recording (the JSON the
// Recorder panel exports) into a browser trace:
//
//   - navigate becomes a navigate event, its asserted title the window's;
//   - click and doubleClick become click, rightclick, middleclick or
//     dblclick events by button, with the pointer offset in the target;
//   - change becomes an input event carrying the field's new value;
//   - keyDown and keyUp become keydown and keyup events, with the
//     modifiers held (a keyDown "Control" holds ctrl until its keyUp);
//   - scroll becomes a scroll event, close a tab_close;
//   - an asserted navigation on any other step becomes a navigate event
//     caused by that step's event; a step on another page ("target")
//     is preceded by a tab_switch to it;
//   - the first setViewport becomes start.viewport.
//
// Selectors become target attributes: aria/Name → name (and role, from
// aria/Name[role="button"]), #id and pierce/#id → id, .class → class,
// text/… → only its XPath (it matches a piece of text, not whole words),
// xpath//*[@id="x"] → id, an absolute xpath (/html/body/…) → path. All
// selectors are kept verbatim in the target's selectors.
//
// Steps that do not become events (hover, waitForElement,
// waitForExpression, customStep, emulateNetworkConditions, unknown types,
// unreadable steps) are returned as warnings. The error is for input that
// is not a recording at all.
func FromDevTools(r io.Reader) (*Trace, []Warning, error) {
	data, err := readLimited(r, MaxRecordingSize, "a DevTools recording")
	if err != nil {
		return nil, nil, err
	}
	var rec struct {
		Title  string            `json:"title"`
		Steps  []json.RawMessage `json:"steps"`
		Format string            `json:"format"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, nil, fmt.Errorf("not a DevTools Recorder recording: %w", jsonError("$", data, err))
	}
	if rec.Format == Format {
		return nil, nil, fmt.Errorf("not a DevTools Recorder recording: this is already a cogflow trace")
	}
	if rec.Steps == nil {
		return nil, nil, fmt.Errorf("not a DevTools Recorder recording: it has no \"steps\"")
	}
	c := &converter{t: New(DriverBrowser), page: "main"}
	c.t.Title, c.t.Source = rec.Title, SourceDevTools
	for i, raw := range rec.Steps {
		c.step(i, raw)
	}
	if len(c.errs) > 0 {
		return nil, nil, c.errs
	}
	if err := c.t.Validate(); err != nil {
		return nil, nil, fmt.Errorf("converting the recording: %w", err)
	}
	return c.t, c.warns, nil
}

type converter struct {
	t     *Trace
	warns []Warning
	errs  Errors // what makes the recording unusable (fail)
	page  string // the Recorder target of the last step: "main" or a URL
	mods  Key    // modifiers held
	// mainURL is the address the main page last navigated to; frame is
	// the current step's frame path.
	mainURL string
	frame   []int
	// cur is the step being converted.
	cur struct {
		i   int
		typ string
		raw json.RawMessage
	}
}

func (c *converter) warn(format string, args ...any) {
	c.warns = append(c.warns, Warning{Step: c.cur.i, Type: c.cur.typ, Msg: fmt.Sprintf(format, args...), Raw: c.cur.raw})
}

func (c *converter) emit(e Event) *Event {
	n := len(c.t.Events)
	e.ID = "e" + strconv.Itoa(n+1)
	e.Time = int64(n) * ImportInterval
	if e.Key == nil && (c.mods != Key{}) && !e.Kind.IsTab() && e.Kind != KindNavigate {
		k := c.mods
		e.Key = &k
	}
	c.t.Events = append(c.t.Events, e)
	return &c.t.Events[n]
}

func (c *converter) step(i int, raw json.RawMessage) {
	var s devtoolsStep
	c.cur.i, c.cur.raw = i, raw
	var head struct {
		Type any `json:"type"`
	}
	_ = json.Unmarshal(raw, &head)
	c.cur.typ, _ = head.Type.(string)
	if err := json.Unmarshal(raw, &s); err != nil {
		c.warn("step not converted: %v", jsonError(c.stepPath(), raw, err))
		return
	}
	if s.Type == "" {
		c.warn("step not converted: it has no type")
		return
	}
	c.frame = s.Frame
	switch s.Type {
	case "setViewport", "navigate", "click", "doubleClick", "change", "keyDown", "keyUp", "scroll", "close",
		"hover", "waitForElement", "waitForExpression":
		c.switchPage(s.Target, s.Type)
	}
	if s.Timeout > 0 {
		// Every event of the step carries the step's bound.
		defer c.stepTimeout(len(c.t.Events), s.Timeout)
	}

	var ev *Event
	switch s.Type {
	case "setViewport":
		if s.Width <= 0 || s.Height <= 0 {
			c.warn("viewport %d×%d is not a size; ignored", s.Width, s.Height)
			return
		}
		vp := &Viewport{Width: s.Width, Height: s.Height, Mobile: s.Mobile}
		if s.Scale > 0 && s.Scale != 1 {
			vp.Scale = s.Scale
		}
		if c.t.Start.Viewport == nil && len(c.t.Events) == 0 {
			c.t.Start.Viewport = vp
			return
		}
		// A resize during the recording is replayed where it happened.
		c.emit(Event{Kind: KindViewport, Viewport: vp})
		return
	case "navigate":
		if s.URL == "" {
			c.warn("step not converted: navigate without a url")
			return
		}
		if err := checkURL(c.stepPath().field("url"), s.URL); err != nil {
			c.fail(err)
			return
		}
		if c.page == "main" {
			c.mainURL = s.URL
		}
		e := Event{Kind: KindNavigate, URL: s.URL}
		for _, a := range s.AssertedEvents {
			if a.Type == "navigation" && a.Title != "" {
				e.Window = &Window{Title: a.Title}
			}
		}
		c.emit(e)
		c.assertions(s, nil)
		return
	case "click", "doubleClick":
		tg := c.target(s.Selectors)
		if tg == nil {
			return
		}
		e := Event{Kind: KindClick, Target: tg, Button: ButtonLeft, OffsetX: s.OffsetX, OffsetY: s.OffsetY}
		switch s.Button {
		case "", "primary":
		case "secondary":
			e.Kind, e.Button = KindRightClick, ButtonRight
		case "auxiliary":
			e.Kind, e.Button = KindMiddleClick, ButtonMiddle
		case "back":
			e.Button = ButtonBack
		case "forward":
			e.Button = ButtonForward
		default:
			c.warn("unknown button %q, taken as the primary button", s.Button)
		}
		if s.Type == "doubleClick" {
			if e.Kind != KindClick || e.Button != ButtonLeft {
				c.warn("a double click with the %s button is recorded as a %s", s.Button, e.Kind)
			} else {
				e.Kind = KindDblClick
			}
		}
		ev = c.emit(e)
	case "change":
		tg := c.target(s.Selectors)
		if tg == nil {
			return
		}
		ev = c.emit(Event{Kind: KindInput, Target: tg, Value: s.Value})
	case "keyDown", "keyUp":
		if s.Key == "" {
			c.warn("step not converted: %s without a key", s.Type)
			return
		}
		down := s.Type == "keyDown"
		switch s.Key {
		case "Control":
			c.mods.Ctrl = down
		case "Alt":
			c.mods.Alt = down
		case "Shift":
			c.mods.Shift = down
		case "Meta":
			c.mods.Meta = down
		}
		k := c.mods
		k.Key = s.Key
		e := Event{Kind: KindKeyUp, Key: &k}
		if down {
			e.Kind = KindKeyDown
			if utf8.RuneCountInString(s.Key) == 1 && !k.Ctrl && !k.Meta && !k.Alt {
				e.Text = s.Key
			}
		}
		ev = c.emit(e)
	case "scroll":
		e := Event{Kind: KindScroll, X: s.X, Y: s.Y}
		if len(s.Selectors) > 0 {
			e.Target = c.target(s.Selectors)
		}
		ev = c.emit(e)
	case "close":
		c.emit(Event{Kind: KindTabClose, Window: c.window(c.page)})
		return
	case "hover":
		tg := c.target(s.Selectors)
		if tg == nil {
			return
		}
		ev = c.emit(Event{Kind: KindHover, Target: tg})
	case "waitForElement":
		ev = c.waitForElement(s)
		if ev == nil {
			return
		}
	case "waitForExpression":
		if strings.TrimSpace(s.Expression) == "" {
			c.warn("step not converted: waitForExpression without an expression")
			return
		}
		ev = c.emit(Event{Kind: KindWait, Wait: &Wait{Expression: s.Expression}})
	case "customStep":
		c.warn("not converted: custom steps run extension code a trace cannot represent")
		return
	case "emulateNetworkConditions":
		c.warn("not converted: network emulation is not part of a demonstration")
		return
	default:
		c.warn("not converted: unknown step type %q", s.Type)
		return
	}
	c.assertions(s, ev)
}

// assertions turns an asserted navigation after a step into a navigate
// event caused by the step's event.
func (c *converter) assertions(s devtoolsStep, cause *Event) {
	for i, a := range s.AssertedEvents {
		switch {
		case a.Type != "navigation":
			c.warn("asserted event %q not converted", a.Type)
		case cause == nil: // the navigate step's own
		case a.URL == "":
			c.warn("asserted navigation without a url not converted")
		case checkURL(c.stepPath().field("assertedEvents").index(i).field("url"), a.URL) != nil:
			c.fail(checkURL(c.stepPath().field("assertedEvents").index(i).field("url"), a.URL))
		default:
			e := Event{Kind: KindNavigate, Cause: cause.ID, URL: a.URL}
			if a.Title != "" {
				e.Window = &Window{Title: a.Title}
			}
			c.emit(e)
		}
	}
}

// switchPage records a tab_switch when a step acts on another page. A
// target on another site than the main page is an out-of-process frame of
// it (see frameTarget), not a tab.
func (c *converter) switchPage(target, typ string) {
	if target == "" {
		target = "main"
	}
	if target == c.page {
		return
	}
	if target != "main" && c.frameTarget(target) {
		c.warn("target %s is on another site than the page (%s): taken as an out-of-process frame of the page, not a tab", target, c.mainURL)
		return
	}
	c.page = target
	c.emit(Event{Kind: KindTabSwitch, Window: c.window(target)})
}

func (c *converter) window(page string) *Window {
	w := &Window{ID: page}
	if page != "main" {
		w.URL = page
	}
	return w
}

// target builds an event target from Recorder selectors; nil, with a
// warning, when there are none.
func (c *converter) target(sels []json.RawMessage) *Target {
	tg := &Target{}
	var hard hardSelectors
	for _, raw := range sels {
		var chain []string
		var one string
		if err := json.Unmarshal(raw, &one); err == nil {
			chain = []string{one}
		} else if err := json.Unmarshal(raw, &chain); err != nil || len(chain) == 0 {
			c.warn("selector %s is neither a string nor a list of strings; ignored", raw)
			continue
		}
		tg.Selectors = append(tg.Selectors, strings.Join(chain, " >>> "))
		selectorAttributes(tg, chain)
		hard.add(chain)
	}
	if len(tg.Selectors) == 0 {
		c.warn("step not converted: it has no selectors for its element")
		return nil
	}
	tg.CSS, tg.XPath = hard.best()
	if len(c.frame) > 0 {
		tg.Frame = append([]int{}, c.frame...)
	}
	return tg
}

var (
	ariaAttrRE = regexp.MustCompile(`\[(role|name)="((?:[^"\\]|\\.)*)"\]$`)
	cssIdentRE = `(?:[A-Za-z_-]|\\.)(?:[A-Za-z0-9_-]|\\.)*`
	compoundRE = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9-]*)?((?:#` + cssIdentRE + `)?)((?:\.` + cssIdentRE + `)*)$`)
	xpathIDRE  = regexp.MustCompile(`^//\*\[@id="([^"]*)"\]$`)
	xpathAbsRE = regexp.MustCompile(`^/html(?:\[1\])?/body(?:\[1\])?/([A-Za-z][A-Za-z0-9-]*(?:\[\d+\])?(?:/[A-Za-z][A-Za-z0-9-]*(?:\[\d+\])?)*)$`)
)

// selectorAttributes sets the attributes a selector chain names, from its
// last part (the element itself); attributes already set are kept, so
// the first selector that names one wins.
func selectorAttributes(tg *Target, chain []string) {
	s := chain[len(chain)-1]
	set := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	switch {
	case strings.HasPrefix(s, "aria/"):
		rest := s[len("aria/"):]
		for {
			m := ariaAttrRE.FindStringSubmatchIndex(rest)
			if m == nil {
				break
			}
			key, val := rest[m[2]:m[3]], unescapeQuoted(rest[m[4]:m[5]])
			if key == "role" {
				set(&tg.Role, val)
			} else {
				set(&tg.Name, val)
			}
			rest = rest[:m[0]]
		}
		set(&tg.Name, strings.TrimSpace(rest))
	case strings.HasPrefix(s, "text/"):
		// No text: attribute: the Recorder's text selector matches a
		// piece of the text anywhere ("Inp" in "Input"), where text: asks
		// for whole words. Its XPath (devtools_selectors.go) says it exactly.
	case strings.HasPrefix(s, "xpath/"):
		x := s[len("xpath/"):]
		if m := xpathIDRE.FindStringSubmatch(x); m != nil {
			set(&tg.ID, m[1])
		} else if m := xpathAbsRE.FindStringSubmatch(x); m != nil && len(chain) == 1 {
			set(&tg.Path, m[1])
		}
	case strings.HasPrefix(s, "pierce/"):
		cssAttributes(tg, s[len("pierce/"):], set)
	default:
		cssAttributes(tg, s, set)
	}
}

// cssAttributes reads a compound CSS selector (tag#id.class…); anything
// more complex names no attribute.
func cssAttributes(tg *Target, css string, set func(*string, string)) {
	m := compoundRE.FindStringSubmatch(strings.TrimSpace(css))
	if m == nil {
		return
	}
	if m[2] != "" {
		set(&tg.ID, unescapeCSS(m[2][1:]))
	}
	if m[3] != "" {
		var cls []string
		for _, c := range strings.Split(m[3][1:], ".") {
			cls = append(cls, unescapeCSS(c))
		}
		set(&tg.Class, strings.Join(cls, " "))
	}
}

func unescapeCSS(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func unescapeQuoted(s string) string { return unescapeCSS(s) }
