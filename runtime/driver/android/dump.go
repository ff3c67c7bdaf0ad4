package android

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// node is one <node> of a uiautomator dump, as the device wrote it.
type node struct {
	Index         string `xml:"index,attr"`
	Text          string `xml:"text,attr"`
	ResourceID    string `xml:"resource-id,attr"`
	Class         string `xml:"class,attr"`
	Package       string `xml:"package,attr"`
	ContentDesc   string `xml:"content-desc,attr"`
	Hint          string `xml:"hint,attr"` // Android 13+ dumps only
	Checkable     bool   `xml:"checkable,attr"`
	Checked       bool   `xml:"checked,attr"`
	Clickable     bool   `xml:"clickable,attr"`
	Enabled       bool   `xml:"enabled,attr"`
	Focusable     bool   `xml:"focusable,attr"`
	Focused       bool   `xml:"focused,attr"`
	Scrollable    bool   `xml:"scrollable,attr"`
	LongClickable bool   `xml:"long-clickable,attr"`
	Password      bool   `xml:"password,attr"`
	Selected      bool   `xml:"selected,attr"`
	NAF           bool   `xml:"NAF,attr"`
	Bounds        string `xml:"bounds,attr"`
	Nodes         []node `xml:"node"`

	rect rect // parsed Bounds
}

// rect is a node's bounds in screen pixels: [Left,Top][Right,Bottom].
type rect struct{ L, T, R, B int }

func (r rect) empty() bool            { return r.R <= r.L || r.B <= r.T }
func (r rect) contains(x, y int) bool { return x >= r.L && x < r.R && y >= r.T && y < r.B }

// hierarchy is the document element of a dump.
type hierarchy struct {
	Rotation int    `xml:"rotation,attr"`
	Nodes    []node `xml:"node"`
}

// ErrNoHierarchy is wrapped by parse errors of output that holds no
// hierarchy at all: uiautomator printed only an error, which happens while
// the screen is animating ("could not get idle state") or locked.
var ErrNoHierarchy = errors.New("no UI hierarchy in the dump")

// parseDump reads the output of `uiautomator dump`: one line of XML,
// usually followed by "UI hierchary dumped to: …" (sic) and sometimes
// preceded by warnings. Characters that are not allowed in XML 1.0 (some
// apps put control characters in their texts, and uiautomator writes them
// raw) are dropped before decoding.
func parseDump(out []byte) (*hierarchy, error) {
	start := bytes.Index(out, []byte("<?xml"))
	if start < 0 {
		start = bytes.Index(out, []byte("<hierarchy"))
	}
	end := bytes.LastIndex(out, []byte("</hierarchy>"))
	if start < 0 || end < start {
		if bytes.Contains(out, []byte("<hierarchy")) && end < 0 {
			return nil, fmt.Errorf("%w: the dump is cut short (%d bytes, no </hierarchy>)", ErrNoHierarchy, len(out))
		}
		return nil, fmt.Errorf("%w: uiautomator said %q", ErrNoHierarchy, firstLine(out))
	}
	doc := cleanXML(out[start : end+len("</hierarchy>")])
	var h hierarchy
	dec := xml.NewDecoder(bytes.NewReader(doc))
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("uiautomator dump: %w", err)
	}
	if len(h.Nodes) == 0 {
		return nil, fmt.Errorf("%w: the hierarchy is empty", ErrNoHierarchy)
	}
	for i := range h.Nodes {
		if err := parseBounds(&h.Nodes[i], 0); err != nil {
			return nil, err
		}
	}
	return &h, nil
}

// maxDepth bounds the nesting the parser accepts; real hierarchies stay
// well under 100 levels.
const maxDepth = 500

func parseBounds(n *node, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("uiautomator dump: nodes nested deeper than %d", maxDepth)
	}
	if n.Bounds != "" {
		r, err := parseRect(n.Bounds)
		if err != nil {
			return fmt.Errorf("uiautomator dump: node %s (%s): %w", n.Index, n.Class, err)
		}
		n.rect = r
	}
	for i := range n.Nodes {
		if err := parseBounds(&n.Nodes[i], depth+1); err != nil {
			return err
		}
	}
	return nil
}

// parseRect reads "[left,top][right,bottom]".
func parseRect(s string) (rect, error) {
	bad := fmt.Errorf("bad bounds %q", s)
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return rect{}, bad
	}
	parts := strings.Split(s[1:len(s)-1], "][")
	if len(parts) != 2 {
		return rect{}, bad
	}
	var v [4]int
	for i, p := range parts {
		xy := strings.Split(p, ",")
		if len(xy) != 2 {
			return rect{}, bad
		}
		for j, n := range xy {
			k, err := strconv.Atoi(strings.TrimSpace(n))
			if err != nil {
				return rect{}, bad
			}
			v[2*i+j] = k
		}
	}
	return rect{v[0], v[1], v[2], v[3]}, nil
}

// cleanXML drops bytes XML 1.0 forbids: control characters other than tab,
// newline and carriage return, and invalid UTF-8.
func cleanXML(b []byte) []byte {
	ok := true
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if !xmlChar(r) || (r == utf8.RuneError && n == 1) {
			ok = false
			break
		}
		i += n
	}
	if ok {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if xmlChar(r) && !(r == utf8.RuneError && n == 1) {
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}

func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		(r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return "nothing"
	}
	return clip(s, 200)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
