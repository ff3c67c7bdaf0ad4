package site

import (
	"fmt"
	"slices"
	"strings"
)

// Layouts are the page layouts the site can serve, the default first. The
// "moved" layout is the same site after a redesign: the notes page's Save
// button sits behind a "More" menu (a disclosure button whose items the
// script builds when it opens), so a workflow recorded on the original
// layout no longer finds Save on the screen. It is what self-healing
// (cogflow run --heal) is tried on.
var Layouts = []string{LayoutOriginal, LayoutMoved}

// The layouts' names, as `cogflow demo serve --layout` takes them.
const (
	LayoutOriginal = "original"
	LayoutMoved    = "moved"
)

// NewLayout returns a site in its initial state that serves the named
// layout; "" is the original one. An unknown name is an error that lists
// the known ones.
func NewLayout(name string) (*Site, error) {
	if name == "" {
		name = LayoutOriginal
	}
	if !slices.Contains(Layouts, name) {
		return nil, fmt.Errorf("unknown layout %q: want one of %s", name, strings.Join(Layouts, ", "))
	}
	s := New()
	s.layout = name
	return s, nil
}

// Layout is the name of the layout the site serves.
func (s *Site) Layout() string {
	if s.layout == "" {
		return LayoutOriginal
	}
	return s.layout
}
