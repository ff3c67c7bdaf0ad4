package explore

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/knowledge"
	"github.com/cogflow/cogflow/runtime/llm"
)

// item is one element of a fake screen.
type item struct {
	role, name string
	to         string // the screen a click opens; "" does nothing
	field      bool   // an editable field
}

// screen is a fake screen; an overlay (a menu) closes with Escape.
type screen struct {
	items   []item
	overlay bool
	popup   bool   // choosing an item closes the screen first, as a popup menu does
	url     string // "" → the app's URL
}

// fakeApp is an in-memory app of screens with a back stack, as a phone's
// activities are: a click may open a screen, back closes it.
type fakeApp struct {
	url     string
	screens map[string]screen
	stack   []string
	values  map[string]string // field name → value
	log     []string
}

func newFakeApp(url string, screens map[string]screen, start string) *fakeApp {
	return &fakeApp{url: url, screens: screens, stack: []string{start}, values: map[string]string{}}
}

func (f *fakeApp) top() string { return f.stack[len(f.stack)-1] }

func (f *fakeApp) Observe(ctx context.Context) (*driver.Tree, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name := f.top()
	s := f.screens[name]
	u := f.url
	if s.url != "" {
		u = s.url
	}
	t := &driver.Tree{URL: u, Title: name}
	for i, it := range s.items {
		t.Elements = append(t.Elements, &driver.Element{
			Ref: name + "/" + strconv.Itoa(i), Role: it.role, Name: it.name, Visible: true, Enabled: true,
			Editable: it.field, Value: f.values[it.name], Parent: -1, Bounds: driver.Rect{W: 10, H: 10},
		})
	}
	return t, nil
}

func (f *fakeApp) find(ref string) (item, error) {
	name, idx, _ := strings.Cut(ref, "/")
	i, _ := strconv.Atoi(idx)
	if name != f.top() || i >= len(f.screens[name].items) {
		return item{}, fmt.Errorf("element %s is not on screen %s", ref, f.top())
	}
	return f.screens[name].items[i], nil
}

func (f *fakeApp) Do(ctx context.Context, a driver.Action) (driver.Result, error) {
	if err := ctx.Err(); err != nil {
		return driver.Result{}, err
	}
	var it item
	if a.Target != nil {
		var err error
		if it, err = f.find(a.Target.Ref); err != nil {
			return driver.Result{}, err
		}
	}
	f.log = append(f.log, string(a.Op)+" "+it.name+a.Text)
	switch a.Op {
	case action.Click:
		if it.to != "" {
			if f.screens[f.top()].popup {
				f.stack = f.stack[:len(f.stack)-1]
			}
			f.stack = append(f.stack, it.to)
		}
	case action.Type:
		f.values[it.name] = a.Text
	case action.Clear:
		delete(f.values, it.name)
	case action.Back:
		if len(f.stack) > 1 {
			f.stack = f.stack[:len(f.stack)-1]
		}
	case action.Key:
		if a.Text == "Escape" && f.screens[f.top()].overlay {
			f.stack = f.stack[:len(f.stack)-1]
		}
	default:
		return driver.Result{}, fmt.Errorf("the fake app does not %s", a.Op)
	}
	return driver.Result{}, nil
}

func (f *fakeApp) Screenshot(context.Context) ([]byte, error) { return nil, nil }
func (f *fakeApp) Close() error                               { return nil }
func (f *fakeApp) Capabilities() driver.Capabilities {
	return driver.Capabilities{Actions: []action.Name{action.Click, action.Type, action.Clear, action.Back, action.Key}}
}

// clicked reports whether an element of that name was clicked.
func (f *fakeApp) clicked(name string) bool {
	for _, l := range f.log {
		if l == "click "+name {
			return true
		}
	}
	return false
}

// contactsScreens is a small contacts app: importing is behind the
// overflow menu, where Settings is a wrong branch.
func contactsScreens() map[string]screen {
	return map[string]screen{
		"list": {items: []item{
			{role: "button", name: "More options", to: "menu"},
			{role: "listitem", name: "Alice"},
			{role: "button", name: "Delete all", to: "empty"},
			{role: "button", name: "Sort", to: "sort"},
		}},
		"sort": {overlay: true, items: []item{{role: "menuitem", name: "By name"}, {role: "menuitem", name: "By date"}}},
		"menu": {overlay: true, items: []item{
			{role: "menuitem", name: "Settings", to: "settings"},
			{role: "menuitem", name: "Import/export", to: "import"},
		}},
		"settings": {items: []item{{role: "switch", name: "Dark theme"}, {role: "button", name: "About", to: "about"}}},
		"about":    {items: []item{{role: "text", name: "Version 1"}}},
		"import":   {items: []item{{role: "button", name: "Import from .vcf file", to: "files"}, {role: "button", name: "Export to .vcf file", to: "exported"}}},
		"exported": {items: []item{{role: "text", name: "Exported"}}},
		"files":    {items: []item{{role: "listitem", name: "notes.txt"}, {role: "listitem", name: "contacts.vcf", to: "done"}}},
		"done":     {items: []item{{role: "listitem", name: "Alice"}, {role: "listitem", name: "Bob Imported"}}},
		"empty":    {items: []item{{role: "text", name: "No contacts"}}},
	}
}

// importedCheck is the goal "the list shows the imported contact".
func importedCheck(t *driver.Tree) (bool, error) {
	for _, e := range t.Elements {
		if e.Name == "Bob Imported" {
			return true, nil
		}
	}
	return false, nil
}

// fakeModel ranks by a table of scores by element name and counts calls.
type fakeModel struct {
	mu      sync.Mutex
	scores  map[string]int // element name → score; others 1
	reached string         // an element name whose presence means the goal holds
	prompts []string
}

var candLine = regexp.MustCompile(`(?m)^(\d+)\. .*?\(name: "([^"]*)"\)`)

func (m *fakeModel) Complete(ctx context.Context, r llm.Request) (*llm.Response, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	user := r.Messages[len(r.Messages)-1].Content
	m.prompts = append(m.prompts, user)
	switch {
	case strings.Contains(user, "Candidates:"):
		var b strings.Builder
		for _, c := range candLine.FindAllStringSubmatch(user, -1) {
			s := m.scores[c[2]]
			if s == 0 {
				s = 1
			}
			fmt.Fprintf(&b, "%s: %d\n", c[1], s)
		}
		return &llm.Response{Text: b.String()}, nil
	case strings.Contains(user, "Is the goal reached?"):
		if m.reached != "" && strings.Contains(user, m.reached) {
			return &llm.Response{Text: "yes, the contact is listed"}, nil
		}
		return &llm.Response{Text: "no, not yet"}, nil
	}
	return &llm.Response{Text: "Settings does not lead to importing contacts."}, nil
}

func (m *fakeModel) calls() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.prompts)
}

// memory is an in-memory Memory for tests.
type memory struct {
	transitions []knowledge.Transition
	paths       map[string]knowledge.Path
	lessons     []knowledge.Lesson
}

func newMemory() *memory { return &memory{paths: map[string]knowledge.Path{}} }

func (m *memory) Transitions(app, from string) ([]knowledge.Transition, error) {
	var out []knowledge.Transition
	for _, t := range m.transitions {
		if t.App == app && t.From == from {
			out = append(out, t)
		}
	}
	return out, nil
}

func (m *memory) AddTransition(t knowledge.Transition) error {
	m.transitions = append(m.transitions, t)
	return nil
}

func (m *memory) Path(app, command string) (knowledge.Path, bool, error) {
	p, ok := m.paths[app+"\x00"+command]
	return p, ok, nil
}

func (m *memory) SavePath(p knowledge.Path) error {
	k := p.App + "\x00" + p.Command
	if old, ok := m.paths[k]; !ok || len(p.Steps) < len(old.Steps) {
		m.paths[k] = p
	}
	return nil
}

func (m *memory) AddLesson(l knowledge.Lesson) error {
	m.lessons = append(m.lessons, l)
	return nil
}

func (m *memory) Lessons(app, command string) ([]knowledge.Lesson, error) {
	var out []knowledge.Lesson
	for _, l := range m.lessons {
		if l.App == app && l.Command == command {
			out = append(out, l)
		}
	}
	return out, nil
}
