package model

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/redact"
)

// DefaultCacheDir is where the cache lives when no folder is configured,
// relative to the project folder.
const DefaultCacheDir = ".cogflow/cache"

// Cache keeps model answers on disk, content-addressed: an entry's name is
// the SHA-256 of everything the answer depends on (Key), so a changed
// model, prompt, input or page is a different entry and nothing is ever
// invalidated. Entries are small JSON files in a two-level fan-out
// (ab/cdef….json), each written to a temporary file and renamed into
// place, so runs sharing a cache never read a torn entry; when two write
// the same key, one whole entry wins.
type Cache struct {
	// Dir is the cache folder.
	Dir string
	// NoCache neither reads nor writes (--no-cache).
	NoCache bool
	// Refresh does not read but writes the fresh answers (--refresh).
	Refresh bool
	// Secrets are values that must never be written: Put refuses an entry
	// whose key material or answer holds one. The set grows during a run.
	Secrets *redact.Set
}

// NewCache returns a cache in dir, DefaultCacheDir when dir is "".
func NewCache(dir string) *Cache {
	if dir == "" {
		dir = DefaultCacheDir
	}
	return &Cache{Dir: dir}
}

// Key is what an answer depends on.
type Key struct {
	Model       string   `json:"model"`
	Prompt      string   `json:"prompt"` // prompt versions, e.g. "system v1; contextual_selection v1; layout 1"
	Main        string   `json:"main"`
	Sub         string   `json:"sub"`
	Description string   `json:"description"`
	Goal        string   `json:"goal"`
	Inputs      []string `json:"inputs"`
	// Candidates fingerprints the candidates offered, in order
	// (SetFingerprint); "" when none are.
	Candidates string `json:"candidates"`
	// Screen fingerprints the screen text the prompt carries
	// (TextFingerprint); "" when the dependency reads no screen. A
	// dependency without inputs asks about the screen, so without it every
	// page would share the first page's answer.
	Screen string `json:"screen"`
}

// keyVersion changes when Key's meaning does, so that entries written
// under an older meaning are never read (version 2 added Screen: a
// version-1 entry of a screen-reading dependency answered every screen).
const keyVersion = 2

// Hash is the key's SHA-256 in hex: the entry's name.
func (k Key) Hash() string {
	b, err := json.Marshal(struct {
		V int `json:"v"`
		Key
	}{keyVersion, k})
	if err != nil {
		panic(err) // strings only: cannot fail
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// material lists the key's texts, for the secret guard.
func (k Key) material() []string {
	return append([]string{k.Model, k.Main, k.Sub, k.Description, k.Goal}, k.Inputs...)
}

// Entry is one cached answer. An element answer is stored as the chosen
// candidate's position and fingerprint and found again among the live
// candidates by its fingerprint.
type Entry struct {
	Key         string    `json:"key"`
	Kind        string    `json:"kind"` // "text", "number", "element" or "span"
	Text        string    `json:"text,omitempty"`
	Number      float64   `json:"number"`
	Index       int       `json:"index"`
	Fingerprint string    `json:"fingerprint,omitempty"`
	Model       string    `json:"model,omitempty"`
	Created     time.Time `json:"created"`
}

// ErrSecret is wrapped by errors that refuse to send or store a secret.
var ErrSecret = errors.New("secret value")

// path is the file of the entry named hash.
func (c *Cache) path(hash string) string {
	return filepath.Join(c.Dir, hash[:2], hash[2:]+".json")
}

// Get returns the entry for k. A missing, unreadable or corrupt entry is a
// miss, and so is every lookup with NoCache or Refresh.
func (c *Cache) Get(k Key) (*Entry, bool) {
	if c == nil || c.NoCache || c.Refresh {
		return nil, false
	}
	hash := k.Hash()
	b, err := os.ReadFile(c.path(hash))
	if err != nil {
		return nil, false
	}
	var e Entry
	if json.Unmarshal(b, &e) != nil || e.Key != hash {
		return nil, false
	}
	return &e, true
}

// Put stores e under k (nothing with NoCache). It refuses, with an error
// wrapping ErrSecret, when the key material or the answer holds a secret.
func (c *Cache) Put(k Key, e Entry) error {
	if c == nil || c.NoCache {
		return nil
	}
	for _, s := range append(k.material(), e.Text) {
		if holdsSecret(s, c.Secrets) {
			return fmt.Errorf("refusing to cache an answer: %w in what it depends on", ErrSecret)
		}
	}
	hash := k.Hash()
	e.Key = hash
	if e.Created.IsZero() {
		e.Created = time.Now().UTC()
	}
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	final := c.path(hash)
	if err := os.MkdirAll(filepath.Dir(final), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(final), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(append(b, '\n'))
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), final)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing the cache entry: %w", werr)
	}
	return nil
}

// Evict removes the entry named hash (Key.Hash), so the next lookup is a
// miss: a step that failed with the answer must not get it again. An entry
// that is not there is no error; with NoCache nothing is touched.
func (c *Cache) Evict(hash string) error {
	if c == nil || c.NoCache {
		return nil
	}
	if b, err := hex.DecodeString(hash); err != nil || len(b) != sha256.Size {
		return fmt.Errorf("evicting the cache entry: %q is not an entry's name", hash)
	}
	if err := os.Remove(c.path(hash)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("evicting the cache entry: %w", err)
	}
	return nil
}

// Fingerprint identifies an element across observations by its role, name,
// text, id and structural path (not by its Ref, which changes).
func Fingerprint(el *driver.Element) string {
	sum := sha256.Sum256([]byte(strings.Join([]string{el.Role, el.Name, el.Text, el.ID, el.Path}, "\x00")))
	return hex.EncodeToString(sum[:16])
}

// SetFingerprint identifies a list of candidates: their fingerprints in
// order.
func SetFingerprint(els []*driver.Element) string {
	h := sha256.New()
	for _, el := range els {
		h.Write([]byte(Fingerprint(el)))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TextFingerprint identifies a text: its SHA-256 in hex, "" for "".
func TextFingerprint(s string) string {
	if s == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// holdsSecret reports whether s contains one of the secret values, in any
// of the forms the redactor knows (as given, trimmed, escaped).
func holdsSecret(s string, secrets *redact.Set) bool { return secrets.Holds(s) }
