package knowledge

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// now is the time an entry gets when the caller left it zero.
func now() time.Time { return time.Now().UTC().Round(0) }

func orNow(t time.Time) time.Time {
	if t.IsZero() {
		return now()
	}
	return t
}

func need(what, v string) error {
	if v == "" {
		return fmt.Errorf("knowledge: %s is empty", what)
	}
	return nil
}

// AddTransition records that t.Action on state t.From led to t.To. The
// same app, states and action seen again merge into one entry: its Count
// goes up by one and Seen becomes t.Seen (now when zero); t.Count is
// ignored. A non-empty t.Undo replaces the one stored.
func (s *Store) AddTransition(t Transition) error {
	if err := errors.Join(need("app", t.App), need("from state", t.From), need("to state", t.To), need("action", t.Action.Op)); err != nil {
		return err
	}
	key, err := makeKey(t.App, t.From, t.Action.Op, t.Action.Target, t.Action.Text, t.To)
	if err != nil {
		return err
	}
	k, _ := kindOf(KindEnvironment)
	t.Seen = orNow(t.Seen)
	t.Count = 1
	return s.update(func(tx *bolt.Tx) error {
		v := tx.Bucket(k.bucket).Get(key)
		if v == nil {
			return s.put(tx, k, key, record{Transition: &t}, nil)
		}
		old, err := s.decode(k, key, v)
		if err != nil {
			return err
		}
		t.Count = old.Transition.Count + 1
		if t.Undo == "" {
			t.Undo = old.Transition.Undo
		}
		at := old.at()
		return s.put(tx, k, key, record{Transition: &t}, &at)
	})
}

// Transitions returns what is known to follow actions on state from of
// app: the most often seen first, ties in a stable order.
func (s *Store) Transitions(app, from string) ([]Transition, error) {
	prefix, err := makeKey(app, from, "")
	if err != nil {
		return nil, err
	}
	var out []Transition
	k, _ := kindOf(KindEnvironment)
	err = s.scan(k, prefix, func(_ []byte, r record) error {
		out = append(out, *r.Transition)
		return nil
	})
	slices.SortStableFunc(out, func(a, b Transition) int { return b.Count - a.Count })
	return out, err
}

// scan calls fn for every entry of kind k whose key starts with prefix,
// in key order.
func (s *Store) scan(k kind, prefix []byte, fn func(key []byte, r record) error) error {
	return s.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(k.bucket).Cursor()
		for key, v := c.Seek(prefix); key != nil && bytes.HasPrefix(key, prefix); key, v = c.Next() {
			r, err := s.decode(k, key, v)
			if err == nil && !r.has(k) {
				err = fmt.Errorf("%s: entry %s is damaged: it holds no %s", s.path, entryID(k, key), k.name)
			}
			if err == nil {
				err = fn(key, r)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// has reports whether the record holds an entry of kind k.
func (r record) has(k kind) bool {
	switch k.name {
	case KindEnvironment:
		return r.Transition != nil
	case KindTask:
		return r.Task != nil
	case KindExecution:
		return r.Path != nil
	case KindLesson:
		return r.Lesson != nil
	}
	return false
}

// SaveTask records a command of app, replacing what was known about it.
func (s *Store) SaveTask(t Task) error {
	if err := errors.Join(need("app", t.App), need("command", t.Command)); err != nil {
		return err
	}
	key, err := makeKey(t.App, t.Command)
	if err != nil {
		return err
	}
	k, _ := kindOf(KindTask)
	t.Saved = orNow(t.Saved)
	return s.replace(k, key, record{Task: &t}, nil)
}

// replace writes an entry, replacing the one with the same key; keep,
// when set, may decide to keep the old one instead (returning true).
func (s *Store) replace(k kind, key []byte, r record, keep func(old record) bool) error {
	return s.update(func(tx *bolt.Tx) error {
		v := tx.Bucket(k.bucket).Get(key)
		if v == nil {
			return s.put(tx, k, key, r, nil)
		}
		old, err := s.decode(k, key, v)
		if err != nil {
			return err
		}
		if keep != nil && keep(old) {
			return nil
		}
		at := old.at()
		return s.put(tx, k, key, r, &at)
	})
}

// SavePath records the steps that reached command's goal in app. When a
// shorter path is known it is kept and p is dropped; a path as short or
// shorter replaces it (the app may have changed since). A path with no
// steps is an error: it teaches nothing to replay.
func (s *Store) SavePath(p Path) error {
	if err := errors.Join(need("app", p.App), need("command", p.Command)); err != nil {
		return err
	}
	if len(p.Steps) == 0 {
		return fmt.Errorf("knowledge: the path of %q has no steps", p.Command)
	}
	for i, st := range p.Steps {
		if st.Op == "" {
			return fmt.Errorf("knowledge: step %d of the path of %q has no action", i+1, p.Command)
		}
	}
	key, err := makeKey(p.App, p.Command)
	if err != nil {
		return err
	}
	k, _ := kindOf(KindExecution)
	p.Saved = orNow(p.Saved)
	return s.replace(k, key, record{Path: &p}, func(old record) bool {
		return len(old.Path.Steps) < len(p.Steps)
	})
}

// Path returns the path known to reach command's goal in app; false when
// none is.
func (s *Store) Path(app, command string) (Path, bool, error) {
	key, err := makeKey(app, command)
	if err != nil {
		return Path{}, false, err
	}
	k, _ := kindOf(KindExecution)
	var p *Path
	err = s.view(func(tx *bolt.Tx) error {
		v := tx.Bucket(k.bucket).Get(key)
		if v == nil {
			return nil
		}
		r, err := s.decode(k, key, v)
		if err == nil && r.Path == nil {
			err = fmt.Errorf("%s: entry %s is damaged: it holds no path", s.path, entryID(k, key))
		}
		p = r.Path
		return err
	})
	if err != nil || p == nil {
		return Path{}, false, err
	}
	return *p, true, nil
}

// ForgetPath drops the path of command in app, if one is stored: a replay
// that no longer reaches the goal calls it, so the next run explores
// afresh and SavePath can store a longer path that works.
func (s *Store) ForgetPath(app, command string) error {
	key, err := makeKey(app, command)
	if err != nil {
		return err
	}
	k, _ := kindOf(KindExecution)
	return s.update(func(tx *bolt.Tx) error {
		v := tx.Bucket(k.bucket).Get(key)
		if v == nil {
			return nil
		}
		r, err := s.decode(k, key, v)
		if err != nil {
			return err
		}
		return s.del(tx, k, key, r)
	})
}

// AddLesson records a lesson about command in app (Command may be empty
// for one about the whole app). The same text again only refreshes Saved.
func (s *Store) AddLesson(l Lesson) error {
	if err := errors.Join(need("app", l.App), need("lesson text", l.Text)); err != nil {
		return err
	}
	prefix, err := makeKey(l.App, l.Command, "")
	if err != nil {
		return err
	}
	k, _ := kindOf(KindLesson)
	l.Saved = orNow(l.Saved)
	return s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(k.bucket)
		c := b.Cursor()
		for key, v := c.Seek(prefix); key != nil && bytes.HasPrefix(key, prefix); key, v = c.Next() {
			old, err := s.decode(k, key, v)
			if err != nil {
				return err
			}
			if old.Lesson != nil && old.Lesson.Text == l.Text && old.Lesson.Command == l.Command {
				at := old.at()
				return s.put(tx, k, bytes.Clone(key), record{Lesson: &l}, &at)
			}
		}
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		key := fmt.Appendf(bytes.Clone(prefix), "%016x", seq)
		return s.put(tx, k, key, record{Lesson: &l}, nil)
	})
}

// Lessons returns the lessons about command in app in the order they were
// first learned; command "" returns every lesson about the app.
func (s *Store) Lessons(app, command string) ([]Lesson, error) {
	parts := []string{app}
	if command != "" {
		parts = append(parts, command)
	}
	prefix, err := makeKey(append(parts, "")...)
	if err != nil {
		return nil, err
	}
	var out []Lesson
	k, _ := kindOf(KindLesson)
	err = s.scan(k, prefix, func(_ []byte, r record) error {
		out = append(out, *r.Lesson)
		return nil
	})
	return out, err
}
