package trace

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// hardSelectors collects a Recorder target's selectors that locate the
// element exactly and picks the one a target keeps as css or xpath.
type hardSelectors struct {
	css, xpath, text []string
}

// add reads one selector chain (its parts are steps into shadow roots):
//
//   - CSS parts, with or without pierce/, become one css selector joined by
//     " >>> " (cogflow's css pierces shadow roots, as pierce/ does);
//   - a single xpath/… becomes xpath (custom element names included);
//   - a single text/… becomes an XPath for the innermost elements whose
//     text contains it, the way the Recorder's text selector matches;
//   - aria/… names the element's name and role only (descriptive).
func (h *hardSelectors) add(chain []string) {
	var css []string
	for _, p := range chain {
		p = strings.TrimSpace(p)
		switch {
		case strings.HasPrefix(p, "aria/"), strings.HasPrefix(p, "text/"), strings.HasPrefix(p, "xpath/"):
			css = nil
		case strings.HasPrefix(p, "pierce/"):
			css = append(css, strings.TrimSpace(p[len("pierce/"):]))
			continue
		default:
			css = append(css, p)
			continue
		}
		break
	}
	if len(css) == len(chain) && len(css) > 0 {
		h.css = append(h.css, strings.Join(css, " >>> "))
		return
	}
	if len(chain) != 1 {
		return
	}
	s := strings.TrimSpace(chain[0])
	switch {
	case strings.HasPrefix(s, "xpath/"):
		if x := strings.TrimSpace(s[len("xpath/"):]); x != "" {
			h.xpath = append(h.xpath, x)
		}
	case strings.HasPrefix(s, "text/"):
		if x := textXPath(strings.TrimSpace(s[len("text/"):])); x != "" {
			h.text = append(h.text, x)
		}
	}
}

// best is the selector a target keeps: the first CSS, else the first
// XPath, else the text's XPath. One is enough — the Recorder's alternatives
// all named the same element — and one cannot contradict another.
func (h *hardSelectors) best() (css, xpath string) {
	switch {
	case len(h.css) > 0:
		return h.css[0], ""
	case len(h.xpath) > 0:
		return "", h.xpath[0]
	case len(h.text) > 0:
		return "", h.text[0]
	}
	return "", ""
}

// textXPath finds the innermost elements (not scripts or styles) whose
// whitespace-normalized text contains s; "" when s cannot be quoted.
func textXPath(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return ""
	}
	var q string
	switch {
	case !strings.Contains(s, `"`):
		q = `"` + s + `"`
	case !strings.Contains(s, "'"):
		q = "'" + s + "'"
	default:
		return ""
	}
	has := "contains(normalize-space(.), " + q + ")"
	return "//*[not(self::script or self::style) and " + has + " and not(.//*[not(self::script or self::style) and " + has + "])]"
}

// frameTarget tells whether a Recorder target URL is a frame of the main
// page rather than a tab: the Recorder gives an out-of-process iframe a
// target of its own, and such a frame is always on another site than its
// page, while a popup on the same site is always a tab. A popup on another
// site is taken as a frame too (a warning says so); its workflow needs a
// switch_window written by hand.
func (c *converter) frameTarget(target string) bool {
	if c.mainURL == "" {
		return false
	}
	t, err1 := url.Parse(target)
	m, err2 := url.Parse(c.mainURL)
	if err1 != nil || err2 != nil || t.Hostname() == "" || m.Hostname() == "" {
		return false
	}
	return site(t.Hostname()) != site(m.Hostname())
}

// site approximates a host's registrable domain: its last two labels (the
// host itself for an IP address or a one-label name).
func site(host string) string {
	if strings.Count(host, ".") == 3 && strings.Trim(host, "0123456789.") == "" {
		return host
	}
	labels := strings.Split(host, ".")
	if len(labels) <= 2 {
		return host
	}
	return strings.Join(labels[len(labels)-2:], ".")
}

// waitForElement converts a waitForElement step to a wait event: its
// count, operator and visible (false: until the condition no longer
// holds); attributes, and the properties that reflect an attribute, narrow
// the css selector.
func (c *converter) waitForElement(s devtoolsStep) *Event {
	tg := c.target(s.Selectors)
	if tg == nil {
		return nil
	}
	w := &Wait{Compare: s.Operator}
	if s.Count != nil {
		w.Count = *s.Count
	}
	if w.Compare == ">=" && w.Count <= 1 {
		w.Compare = ""
	}
	switch w.Compare {
	case "", ">=", "==", "<=", ">", "<":
	default:
		c.warn("unknown operator %q, taken as >=", w.Compare)
		w.Compare = ""
	}
	if s.Visible != nil && !*s.Visible {
		w.Hidden = true
	}
	attrs := map[string]string{}
	for k, v := range s.Attrs {
		attrs[k] = v
	}
	for k, v := range s.Properties {
		a, ok := reflected[k]
		str, isStr := v.(string)
		if !ok || !isStr {
			c.warn("property %s is not an attribute a selector can test; not checked", k)
			continue
		}
		attrs[a] = str
	}
	if len(attrs) > 0 {
		if tg.CSS == "" {
			c.warn("attributes and properties need a CSS selector to narrow; not checked")
		} else {
			tg.CSS += attrSelector(attrs)
		}
	}
	return c.emit(Event{Kind: KindWait, Target: tg, Wait: w})
}

// reflected are DOM properties whose value is an attribute's.
var reflected = map[string]string{
	"className": "class", "id": "id", "title": "title", "lang": "lang", "dir": "dir",
	"name": "name", "type": "type", "role": "role",
}

// attrSelector is the CSS for elements whose attributes have these exact
// values.
func attrSelector(attrs map[string]string) string {
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "[%s=%q]", k, attrs[k])
	}
	return b.String()
}

// stepTimeout gives the events of one step, from index from on, the
// step's timeout.
func (c *converter) stepTimeout(from int, ms int64) {
	for i := from; i < len(c.t.Events); i++ {
		c.t.Events[i].Timeout = ms
	}
}
