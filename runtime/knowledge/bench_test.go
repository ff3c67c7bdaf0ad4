package knowledge

import (
	"fmt"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// The benchmarks measure the store at its cap of 10,000 transitions for
// one app (100 states × 100 actions), against an in-memory map doing the
// same merge and lookup in the same run: the ratio is the price of a file
// that survives the process (each AddTransition is one fsynced commit).
//
//	go test -run '^$' -bench . -benchtime 200x ./runtime/knowledge

const benchStates, benchActions = 100, 100

func benchTransition(state, action int) Transition {
	return Transition{App: app, From: fmt.Sprint("s", state), Action: click(fmt.Sprint("b", action)), To: fmt.Sprint("s", (state+action)%benchStates), Seen: at(state*benchActions + action)}
}

// fullStore is a store holding the cap's 10,000 transitions, written in
// one commit.
func fullStore(b *testing.B) *Store {
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	k, _ := kindOf(KindEnvironment)
	err = s.update(func(tx *bolt.Tx) error {
		for st := range benchStates {
			for a := range benchActions {
				t := benchTransition(st, a)
				t.Count = 1
				key, _ := makeKey(t.App, t.From, t.Action.Op, t.Action.Target, t.Action.Text, t.To)
				if err := s.put(tx, k, key, record{Transition: &t}, nil); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// mapStore is the baseline: the same merge and lookup in a map.
type mapStore map[string][]Transition

func (m mapStore) add(t Transition) {
	ts := m[t.App+"\x00"+t.From]
	for i := range ts {
		if ts[i].Action == t.Action && ts[i].To == t.To {
			ts[i].Count++
			ts[i].Seen = t.Seen
			return
		}
	}
	t.Count = 1
	m[t.App+"\x00"+t.From] = append(ts, t)
}

func (m mapStore) get(app, from string) []Transition {
	out := slices.Clone(m[app+"\x00"+from])
	slices.SortStableFunc(out, func(a, b Transition) int { return b.Count - a.Count })
	return out
}

func fullMap() mapStore {
	m := mapStore{}
	for st := range benchStates {
		for a := range benchActions {
			m.add(benchTransition(st, a))
		}
	}
	return m
}

func BenchmarkAddTransition(b *testing.B) {
	b.Run("store", func(b *testing.B) {
		s := fullStore(b)
		b.ResetTimer()
		for i := range b.N {
			// Alternately a merge into a known transition and a new one
			// that evicts the oldest: exploration does both.
			t := benchTransition(i%benchStates, i%benchActions)
			if i%2 == 1 {
				t.Action = click(fmt.Sprint("new", i))
			}
			if err := s.AddTransition(t); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("map", func(b *testing.B) {
		m := fullMap()
		b.ResetTimer()
		for i := range b.N {
			t := benchTransition(i%benchStates, i%benchActions)
			if i%2 == 1 {
				t.Action = click(fmt.Sprint("new", i))
			}
			m.add(t)
		}
	})
}

func BenchmarkTransitions(b *testing.B) {
	b.Run("store", func(b *testing.B) {
		s := fullStore(b)
		b.ResetTimer()
		for i := range b.N {
			ts, err := s.Transitions(app, fmt.Sprint("s", i%benchStates))
			if err != nil || len(ts) != benchActions {
				b.Fatal(len(ts), err)
			}
		}
	})
	b.Run("map", func(b *testing.B) {
		m := fullMap()
		b.ResetTimer()
		for i := range b.N {
			if ts := m.get(app, fmt.Sprint("s", i%benchStates)); len(ts) != benchActions {
				b.Fatal(len(ts))
			}
		}
	})
}
