package knowledge

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/cogflow/cogflow/runtime/redact"
)

// FileName is the store's file in the project's .cogflow directory.
const FileName = "knowledge.db"

// Schema is the version of the store's layout and of its JSON values. A
// file or an entry written with a higher one is refused, never guessed at.
const Schema = 1

// LockWait is how long Open waits for another cogflow that has the store
// open before it gives up with an error saying so.
var LockWait = 2 * time.Second

// Caps bound the store: at most this many entries per app of each kind;
// adding one more evicts the app's oldest entry of that kind (by the time
// it was last seen or saved). Exploration of a big app keeps learning
// without the file growing without end.
var Caps = map[string]int{
	KindEnvironment: 10000,
	KindTask:        1000,
	KindExecution:   1000,
	KindLesson:      1000,
}

// kind describes where the entries of one Kind live.
type kind struct {
	name   string // one of the Kind constants
	bucket []byte // bucket of the entries, keyed app \0 …
	tag    byte   // prefix of the kind's keys in the age and count buckets
	id     string // prefix of its entries' ids
}

// kinds in the order List shows them.
var kinds = []kind{
	{KindEnvironment, []byte("environment"), 'e', "env-"},
	{KindTask, []byte("task"), 't', "task-"},
	{KindExecution, []byte("execution"), 'x', "exec-"},
	{KindLesson, []byte("lesson"), 'l', "lesson-"},
}

var (
	metaBucket  = []byte("meta")  // "schema" → Schema
	ageBucket   = []byte("age")   // tag app \0 time(8) key → nil: the oldest entry of an app, first
	countBucket = []byte("count") // tag app → number of the app's entries of that kind
	schemaKey   = []byte("schema")
)

func kindOf(name string) (kind, bool) {
	for _, k := range kinds {
		if k.name == name {
			return k, true
		}
	}
	return kind{}, false
}

// Store is the knowledge that exploration accumulates for a project, in
// one bbolt file. It is safe for concurrent use; one process at a time
// may have it open.
type Store struct {
	db   *bolt.DB
	path string
	caps map[string]int

	mu      sync.Mutex
	secrets *redact.Set
}

// Open opens the store in dir (the project's .cogflow directory), creating
// the directory and the file when needed. A file that is damaged, is not a
// knowledge store or was written by a newer cogflow is an error naming it;
// so is a store another cogflow has open for longer than LockWait.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("knowledge store: %w", err)
	}
	path := filepath.Join(dir, FileName)
	s := &Store{path: path, caps: Caps}
	err := s.guard(func() error {
		db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: LockWait})
		s.db = db
		return err
	})
	var damaged *damagedError
	switch {
	case errors.As(err, &damaged):
		return nil, err
	case errors.Is(err, berrors.ErrTimeout):
		return nil, fmt.Errorf("the knowledge store %s is in use by another cogflow (waited %s); try again when it has finished", path, LockWait)
	case err != nil:
		return nil, fmt.Errorf("the knowledge store %s cannot be opened: %v; if it is damaged, move it away and exploration starts afresh", path, err)
	}
	if err := s.checkSize(); err != nil {
		s.db.Close()
		return nil, err
	}
	if err := s.update(s.initialize); err != nil {
		s.db.Close()
		return nil, err
	}
	return s, nil
}

// File is the store's file.
func (s *Store) File() string { return s.path }

// Close closes the file and releases it for another cogflow.
func (s *Store) Close() error {
	if s == nil || s.db == nil {
		return nil
	}
	return s.db.Close()
}

// Refuse makes every later write fail that holds one of the secrets of
// set, in any form the redact package knows. Callers write a parameter's
// value as {name} in a Step's Text; Refuse is the guard for the case they
// did not, so that a secret never lands in the file.
func (s *Store) Refuse(set *redact.Set) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.secrets = set
}

// ErrSecret is returned for a write that holds a secret (see Refuse).
var ErrSecret = errors.New("refusing to store a secret in the knowledge store; write the parameter as {name}")

// checkSize finds a truncated file: one shorter than its pages need.
// (bbolt would read past its end only when it reaches a missing page, as
// a memory fault or garbage.) On Windows bbolt grows the file when it maps
// it, so there the guard around every transaction is what catches it.
func (s *Store) checkSize() error {
	fi, err := os.Stat(s.path)
	if err != nil {
		return fmt.Errorf("knowledge store: %w", err)
	}
	var need int64
	if err := s.view(func(tx *bolt.Tx) error { need = tx.Size(); return nil }); err != nil {
		return err
	}
	if fi.Size() < need {
		return &damagedError{path: s.path, why: fmt.Sprintf("it is %d bytes, shorter than the %d its pages need: truncated", fi.Size(), need)}
	}
	return nil
}

// initialize creates the buckets of a new file and checks the schema of
// an existing one.
func (s *Store) initialize(tx *bolt.Tx) error {
	meta := tx.Bucket(metaBucket)
	if meta == nil {
		empty := true
		_ = tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
		if !empty {
			return fmt.Errorf("%s is not a cogflow knowledge store (it has no schema); move it away", s.path)
		}
		var err error
		if meta, err = tx.CreateBucket(metaBucket); err != nil {
			return err
		}
		if err := meta.Put(schemaKey, []byte(strconv.Itoa(Schema))); err != nil {
			return err
		}
	}
	v, err := strconv.Atoi(string(meta.Get(schemaKey)))
	switch {
	case err != nil:
		return fmt.Errorf("%s: unreadable schema version %q; move it away", s.path, meta.Get(schemaKey))
	case v > Schema:
		return fmt.Errorf("%s was written by a newer cogflow (schema %d; this one reads %d); upgrade cogflow", s.path, v, Schema)
	}
	for _, name := range [][]byte{ageBucket, countBucket} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	for _, k := range kinds {
		if _, err := tx.CreateBucketIfNotExists(k.bucket); err != nil {
			return err
		}
	}
	return nil
}

// guard runs fn, turning a panic or a memory fault — what bbolt may do on
// a damaged file — into an error naming the file.
func (s *Store) guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = &damagedError{path: s.path, why: fmt.Sprint(r)}
		}
	}()
	return fn()
}

// damagedError is a panic or a fault of bbolt on a damaged file.
type damagedError struct{ path, why string }

func (e *damagedError) Error() string {
	return fmt.Sprintf("the knowledge store %s is damaged (%s); move it away and exploration starts afresh", e.path, e.why)
}

func (s *Store) view(fn func(*bolt.Tx) error) error {
	return s.guard(func() error { return s.db.View(fn) })
}

func (s *Store) update(fn func(*bolt.Tx) error) error {
	return s.guard(func() error { return s.db.Update(fn) })
}

// record is the JSON value of every entry: a schema version and exactly
// one of the kinds.
type record struct {
	V          int         `json:"v"`
	Transition *Transition `json:"transition,omitempty"`
	Task       *Task       `json:"task,omitempty"`
	Path       *Path       `json:"path,omitempty"`
	Lesson     *Lesson     `json:"lesson,omitempty"`
}

// app and at are the entry's app and the time that orders eviction.
func (r record) app() string {
	switch {
	case r.Transition != nil:
		return r.Transition.App
	case r.Task != nil:
		return r.Task.App
	case r.Path != nil:
		return r.Path.App
	case r.Lesson != nil:
		return r.Lesson.App
	}
	return ""
}

func (r record) at() time.Time {
	switch {
	case r.Transition != nil:
		return r.Transition.Seen
	case r.Task != nil:
		return r.Task.Saved
	case r.Path != nil:
		return r.Path.Saved
	case r.Lesson != nil:
		return r.Lesson.Saved
	}
	return time.Time{}
}

// texts are the record's strings, where a secret could hide: the JSON
// around them is not searched, so a short secret ("Z") is not found in a
// timestamp.
func (r record) texts() []string {
	var out []string
	steps := func(ss ...Step) {
		for _, st := range ss {
			out = append(out, st.Op, st.Target, st.Text)
		}
	}
	switch {
	case r.Transition != nil:
		t := r.Transition
		out = append(out, t.App, t.From, t.To, t.Undo)
		steps(t.Action)
	case r.Task != nil:
		out = append(out, r.Task.App, r.Task.Command, r.Task.Intent)
		for k, v := range r.Task.Params {
			out = append(out, k, v)
		}
	case r.Path != nil:
		out = append(out, r.Path.App, r.Path.Command)
		steps(r.Path.Steps...)
	case r.Lesson != nil:
		out = append(out, r.Lesson.App, r.Lesson.Command, r.Lesson.Text)
	}
	return out
}

// decode reads an entry's value; k and key only name it in an error.
func (s *Store) decode(k kind, key, val []byte) (record, error) {
	var r record
	if err := json.Unmarshal(val, &r); err != nil {
		return r, fmt.Errorf("%s: entry %s is damaged: %v", s.path, entryID(k, key), err)
	}
	if r.V > Schema {
		return r, fmt.Errorf("%s: entry %s was written by a newer cogflow (schema %d; this one reads %d)", s.path, entryID(k, key), r.V, Schema)
	}
	if r.app() == "" {
		return r, fmt.Errorf("%s: entry %s is damaged: no %s in it", s.path, entryID(k, key), k.name)
	}
	return r, nil
}

// makeKey joins key parts with NUL, which no part may hold, so that the
// parts of a key never run into each other and a prefix scan by app, or
// by app and state, finds exactly that app's entries.
func makeKey(parts ...string) ([]byte, error) {
	var b bytes.Buffer
	for i, p := range parts {
		if strings.IndexByte(p, 0) >= 0 {
			return nil, fmt.Errorf("knowledge: a NUL byte in %q", p)
		}
		if i > 0 {
			b.WriteByte(0)
		}
		b.WriteString(p)
	}
	return b.Bytes(), nil
}

// put writes an entry. old is the time of the entry it replaces, nil for
// a new one; a new entry beyond the app's cap evicts the app's oldest.
func (s *Store) put(tx *bolt.Tx, k kind, key []byte, r record, old *time.Time) error {
	r.V = Schema
	val, err := json.Marshal(r)
	if err != nil {
		return err
	}
	s.mu.Lock()
	secrets := s.secrets
	s.mu.Unlock()
	for _, text := range r.texts() {
		if secrets.Holds(text) {
			return ErrSecret
		}
	}
	app := r.app()
	if err := tx.Bucket(k.bucket).Put(key, val); err != nil {
		return err
	}
	age := tx.Bucket(ageBucket)
	if old != nil {
		if err := age.Delete(ageKey(k, app, *old, key)); err != nil {
			return err
		}
	}
	if err := age.Put(ageKey(k, app, r.at(), key), nil); err != nil {
		return err
	}
	if old != nil {
		return nil
	}
	n := s.addCount(tx, k, app, 1)
	for ; n > s.caps[k.name] && s.caps[k.name] > 0; n-- {
		if err := s.evictOldest(tx, k, app); err != nil {
			return err
		}
	}
	return nil
}

// del removes an entry whose record is r.
func (s *Store) del(tx *bolt.Tx, k kind, key []byte, r record) error {
	if err := tx.Bucket(k.bucket).Delete(key); err != nil {
		return err
	}
	if err := tx.Bucket(ageBucket).Delete(ageKey(k, r.app(), r.at(), key)); err != nil {
		return err
	}
	s.addCount(tx, k, r.app(), -1)
	return nil
}

// evictOldest removes the app's entry of kind k with the oldest time.
func (s *Store) evictOldest(tx *bolt.Tx, k kind, app string) error {
	prefix := append([]byte{k.tag}, app...)
	prefix = append(prefix, 0)
	c := tx.Bucket(ageBucket).Cursor()
	ak, _ := c.Seek(prefix)
	if ak == nil || !bytes.HasPrefix(ak, prefix) || len(ak) < len(prefix)+8 {
		return nil
	}
	key := bytes.Clone(ak[len(prefix)+8:])
	if err := c.Delete(); err != nil {
		return err
	}
	if err := tx.Bucket(k.bucket).Delete(key); err != nil {
		return err
	}
	s.addCount(tx, k, app, -1)
	return nil
}

// addCount adds d to the app's count of entries of kind k and returns it.
// Put errors cannot happen here: the key is never empty and the
// transaction is writable.
func (s *Store) addCount(tx *bolt.Tx, k kind, app string, d int) int {
	b := tx.Bucket(countBucket)
	ck := append([]byte{k.tag}, app...)
	n := 0
	if v := b.Get(ck); len(v) == 8 {
		n = int(binary.BigEndian.Uint64(v))
	}
	n = max(n+d, 0)
	if n == 0 {
		_ = b.Delete(ck)
		return 0
	}
	_ = b.Put(ck, binary.BigEndian.AppendUint64(nil, uint64(n)))
	return n
}

// ageKey orders an app's entries of a kind by time, oldest first.
func ageKey(k kind, app string, at time.Time, key []byte) []byte {
	b := append([]byte{k.tag}, app...)
	b = append(b, 0)
	b = binary.BigEndian.AppendUint64(b, uint64(max(at.UnixNano(), 0)))
	return append(b, key...)
}
