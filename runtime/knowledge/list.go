package knowledge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// entryID is an entry's id: its kind's prefix and a hash of its key, so
// that it stays the same as long as the entry exists, whatever else the
// store learns.
func entryID(k kind, key []byte) string {
	h := sha256.New()
	h.Write(k.bucket)
	h.Write([]byte{0})
	h.Write(key)
	return k.id + hex.EncodeToString(h.Sum(nil))[:10]
}

// String is a step in .cog words: the action, its target and its text.
func (st Step) String() string {
	parts := []string{st.Op}
	if st.Target != "" {
		parts = append(parts, st.Target)
	}
	if st.Text != "" {
		parts = append(parts, strconv.Quote(st.Text))
	}
	return strings.Join(parts, " ")
}

// maxSummary caps an entry's one-line summary, in runes.
const maxSummary = 100

func clip(s string) string {
	r := []rune(s)
	if len(r) <= maxSummary {
		return s
	}
	return string(r[:maxSummary-1]) + "…"
}

// entry is how List shows a record.
func entry(k kind, key []byte, r record) Entry {
	e := Entry{ID: entryID(k, key), Kind: k.name, App: r.app(), Saved: r.at()}
	switch {
	case r.Transition != nil:
		t := r.Transition
		e.Summary = fmt.Sprintf("%s → %s → %s (seen %d×)", local(t.App, t.From), t.Action, local(t.App, t.To), t.Count)
	case r.Task != nil:
		e.Summary = strconv.Quote(r.Task.Command)
		if r.Task.Intent != "" && r.Task.Intent != r.Task.Command {
			e.Summary += " as " + strconv.Quote(r.Task.Intent)
		}
	case r.Path != nil:
		steps := make([]string, len(r.Path.Steps))
		for i, st := range r.Path.Steps {
			steps[i] = st.String()
		}
		e.Summary = fmt.Sprintf("%q in %d steps: %s", r.Path.Command, len(steps), strings.Join(steps, "; "))
	case r.Lesson != nil:
		e.Summary = r.Lesson.Text
		if r.Lesson.Command != "" {
			e.Summary = fmt.Sprintf("%q: %s", r.Lesson.Command, r.Lesson.Text)
		}
	}
	e.Summary = clip(e.Summary)
	return e
}

// local shortens a state key of app for a one-line summary: the app's
// origin or package, which every key of the app starts with, is left out.
func local(app, state string) string {
	for _, p := range []string{app, "android-app://" + app} {
		if rest, ok := strings.CutPrefix(state, p); ok && rest != "" {
			return rest
		}
	}
	return state
}

// List returns the entries of one kind ("" for every kind): kind by kind
// in the order of the Kind constants, then by app and key, so the same
// store always lists the same way.
func (s *Store) List(kindName string) ([]Entry, error) {
	var ks []kind
	if kindName == "" {
		ks = kinds
	} else {
		k, ok := kindOf(kindName)
		if !ok {
			return nil, fmt.Errorf("unknown kind of knowledge %q (%s, %s, %s or %s)", kindName, KindEnvironment, KindTask, KindExecution, KindLesson)
		}
		ks = []kind{k}
	}
	var out []Entry
	for _, k := range ks {
		err := s.scan(k, nil, func(key []byte, r record) error {
			out = append(out, entry(k, key, r))
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// find calls fn with the entry whose id is id, or returns an error naming
// the id when there is none.
func (s *Store) find(tx *bolt.Tx, id string, fn func(k kind, key []byte, r record) error) error {
	for _, k := range kinds {
		if !strings.HasPrefix(id, k.id) {
			continue
		}
		c := tx.Bucket(k.bucket).Cursor()
		for key, v := c.First(); key != nil; key, v = c.Next() {
			if entryID(k, key) != id {
				continue
			}
			r, err := s.decode(k, key, v)
			if err != nil {
				return err
			}
			return fn(k, bytes.Clone(key), r)
		}
	}
	return fmt.Errorf("no knowledge entry %q in %s (cogflow knowledge list shows the ids)", id, s.path)
}

// Show describes the entry with id over several lines, for a person.
func (s *Store) Show(id string) (string, error) {
	var b strings.Builder
	err := s.view(func(tx *bolt.Tx) error {
		return s.find(tx, id, func(k kind, key []byte, r record) error {
			show(&b, id, k, r)
			return nil
		})
	})
	return b.String(), err
}

func show(b *strings.Builder, id string, k kind, r record) {
	line := func(label, v string) {
		if v != "" {
			fmt.Fprintf(b, "%-9s %s\n", label+":", v)
		}
	}
	fmt.Fprintf(b, "%s (%s)\n", id, k.name)
	line("app", r.app())
	switch {
	case r.Transition != nil:
		t := r.Transition
		line("from", t.From)
		line("action", t.Action.String())
		line("to", t.To)
		line("undo", t.Undo)
		line("seen", fmt.Sprintf("%d times, last %s", t.Count, stamp(t.Seen)))
	case r.Task != nil:
		line("command", strconv.Quote(r.Task.Command))
		line("intent", r.Task.Intent)
		for _, name := range slices.Sorted(maps.Keys(r.Task.Params)) {
			line("param", fmt.Sprintf("%s = %q", name, r.Task.Params[name]))
		}
		line("saved", stamp(r.Task.Saved))
	case r.Path != nil:
		line("command", strconv.Quote(r.Path.Command))
		for i, st := range r.Path.Steps {
			line(fmt.Sprintf("step %d", i+1), st.String())
		}
		line("saved", stamp(r.Path.Saved))
	case r.Lesson != nil:
		line("command", strconv.Quote(r.Lesson.Command))
		line("lesson", r.Lesson.Text)
		line("saved", stamp(r.Lesson.Saved))
	}
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }

// Forget deletes the entry with id; an unknown id is an error naming it.
func (s *Store) Forget(id string) error {
	return s.update(func(tx *bolt.Tx) error {
		return s.find(tx, id, func(k kind, key []byte, r record) error {
			return s.del(tx, k, key, r)
		})
	})
}

// ForgetApp deletes every entry about app, of every kind (the paths a
// replay would follow included), and returns how many there were.
func (s *Store) ForgetApp(app string) (int, error) {
	prefix, err := makeKey(app, "")
	if err != nil {
		return 0, err
	}
	n := 0
	err = s.update(func(tx *bolt.Tx) error {
		n = 0
		for _, k := range kinds {
			var keys [][]byte
			var recs []record
			c := tx.Bucket(k.bucket).Cursor()
			for key, v := c.Seek(prefix); key != nil && bytes.HasPrefix(key, prefix); key, v = c.Next() {
				r, err := s.decode(k, key, v)
				if err != nil {
					return err
				}
				keys, recs = append(keys, bytes.Clone(key)), append(recs, r)
			}
			for i := range keys {
				if err := s.del(tx, k, keys[i], recs[i]); err != nil {
					return err
				}
			}
			n += len(keys)
		}
		return nil
	})
	return n, err
}
