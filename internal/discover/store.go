package discover

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// keptValidations bounds the validation history a sidecar keeps.
const keptValidations = 10

// Sidecar is a stored skill's sidecar file, NAME.json beside NAME.cog: what the
// .cog file cannot say. It never holds a secret: a secret parameter's
// values are left out of its sets.
type Sidecar struct {
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Driver      string     `json:"driver"`
	Start       string     `json:"start"` // where each validation run starts
	Effect      string     `json:"effect"`
	Params      []Param    `json:"params"`
	FinalState  FinalState `json:"final_state"`
	// ParameterSets are the generated values validated on, secret ones
	// left out.
	ParameterSets []map[string]string `json:"parameter_sets"`
	// Body says which form the .cog file holds: BodyAPI or BodySteps.
	Body string `json:"body"`
	// Steps are the UI steps, when the file holds their API translation.
	Steps       string       `json:"steps,omitempty"`
	Validations []Validation `json:"validations"`
}

// Validation is one validation of a stored skill.
type Validation struct {
	At       time.Time `json:"at"`
	Accepted bool      `json:"accepted"`
	Why      []string  `json:"why,omitempty"`
	Runs     []Run     `json:"runs"`
}

// Stored is a skill of the project's library with its sidecar.
type Stored struct {
	Path    string // NAME.cog
	Source  []byte
	Sidecar *Sidecar // nil: a person's own skill, with no sidecar
	// Err is why the skill could not be read (its sidecar is broken): it
	// is listed, so that one broken file hides no other, and is not
	// validated.
	Err error
}

// SkillsDir is where a project keeps its skills for a driver.
func SkillsDir(projectDir, driverName string) string {
	return filepath.Join(cogflow.ProjectSkillsDir(projectDir), driverName)
}

// Write stores an accepted skill: NAME.cog (its description, a usage
// example and the body that passed) and NAME.json (its sidecar). A NAME.cog
// with no sidecar is a person's own skill and is never replaced.
func Write(projectDir string, c *Candidate, v Verdict, start string) ([]string, error) {
	dir := SkillsDir(projectDir, c.Driver)
	cog, side := filepath.Join(dir, c.Name+".cog"), filepath.Join(dir, c.Name+".json")
	if _, err := os.Stat(cog); err == nil {
		if _, err := os.Stat(side); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("discover: %s exists and was not written by discovery; it is kept (rename the proposal's skill or move the file)", cog)
		}
	}
	// The project's library takes one skill per name: this file would
	// hide (or be hidden by) another file's skill of the same name.
	lib, _ := cogflow.ProjectSkills(projectDir)
	if s := lib.Lookup(c.Driver, c.Name); s != nil && s.Project && filepath.Clean(s.File) != filepath.Clean(cog) {
		return nil, fmt.Errorf("discover: %s already declares skill %s; it is kept (rename the proposal's skill or the person's)", s.File, c.Name)
	}
	rec := &Sidecar{Name: c.Name, Description: c.Description, Driver: c.Driver, Start: start, Effect: c.Effect,
		Params: c.Params, FinalState: c.FinalState, Body: v.Body.Kind}
	for _, set := range c.Sets {
		kept := map[string]string{}
		for k, val := range set {
			if !c.secret(k) {
				kept[k] = val
			}
		}
		rec.ParameterSets = append(rec.ParameterSets, kept)
	}
	if v.Body.Kind == BodyAPI {
		rec.Steps = c.body(BodySteps).Source
	}
	rec.add(v)
	src := fmt.Sprintf("# %s\n# example: %s\n%s\n", c.Description, example(c), v.Body.Source)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("discover: %w", err)
	}
	if err := os.WriteFile(cog, []byte(src), 0o644); err != nil {
		return nil, fmt.Errorf("discover: %w", err)
	}
	if err := rec.save(side); err != nil {
		return nil, err
	}
	return []string{cog, side}, nil
}

// example is a call of the skill with the first set's values; a secret
// parameter is passed by its name, as the caller's secret input.
func example(c *Candidate) string {
	var args []string
	for _, p := range c.Params {
		v := c.Sets[0][p.Name]
		switch p.Type {
		case "secret":
			args = append(args, p.Name)
		case "number", "bool":
			args = append(args, v)
		default:
			args = append(args, strconv.Quote(v))
		}
	}
	return c.Name + "(" + strings.Join(args, ", ") + ")"
}

// add appends a validation, keeping the latest ones.
func (r *Sidecar) add(v Verdict) {
	r.Validations = append(r.Validations, Validation{At: time.Now().UTC().Truncate(time.Second), Accepted: v.Accepted, Why: v.Why, Runs: v.Runs})
	if n := len(r.Validations); n > keptValidations {
		r.Validations = r.Validations[n-keptValidations:]
	}
}

func (r *Sidecar) save(path string) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err == nil {
		err = os.WriteFile(path, append(data, '\n'), 0o644)
	}
	if err != nil {
		return fmt.Errorf("discover: writing %s: %w", path, err)
	}
	return nil
}

// Last is the latest validation; nil when there is none.
func (r *Sidecar) Last() *Validation {
	if r == nil || len(r.Validations) == 0 {
		return nil
	}
	return &r.Validations[len(r.Validations)-1]
}

// List returns the project's skills for a driver, by name; one that
// cannot be read has Err set. The error is about the folder only.
func List(projectDir, driverName string) ([]Stored, error) {
	dir := SkillsDir(projectDir, driverName)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("discover: %w", err)
	}
	var out []Stored
	for _, e := range ents {
		if e.IsDir() || filepath.Ext(e.Name()) != ".cog" {
			continue
		}
		path := filepath.Join(dir, e.Name())
		s, err := load(path)
		if err != nil {
			s = Stored{Path: path, Err: err}
		}
		out = append(out, s)
	}
	return out, nil
}

// Find returns the stored skill name of a driver. A name is never a path:
// "../x" would read a file outside the driver's folder.
func Find(projectDir, driverName, name string) (Stored, error) {
	if !identifier.MatchString(name) {
		return Stored{}, fmt.Errorf("discover: %q is not a skill name (lower-case letters, digits, _)", name)
	}
	path := filepath.Join(SkillsDir(projectDir, driverName), name+".cog")
	if _, err := os.Stat(path); err != nil {
		return Stored{}, fmt.Errorf("discover: no skill %q in %s", name, SkillsDir(projectDir, driverName))
	}
	return load(path)
}

func load(path string) (Stored, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return Stored{}, fmt.Errorf("discover: %w", err)
	}
	s := Stored{Path: path, Source: src}
	side := strings.TrimSuffix(path, ".cog") + ".json"
	data, err := os.ReadFile(side)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s, nil
	case err != nil:
		return Stored{}, fmt.Errorf("discover: %w", err)
	}
	s.Sidecar = &Sidecar{}
	if err := json.Unmarshal(data, s.Sidecar); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			// A person edits the file: say where, as an editor counts.
			line, col := lineCol(data, syn.Offset)
			return Stored{}, fmt.Errorf("discover: %s:%d:%d: %v", side, line, col, syn)
		}
		return Stored{}, fmt.Errorf("discover: %s: %v", side, jsonErr(err))
	}
	return s, nil
}

// lineCol is the line and column (from 1, in bytes) of the character
// before offset: where a JSON syntax error was found.
func lineCol(data []byte, offset int64) (int, int) {
	offset = min(offset, int64(len(data)))
	if offset < 1 {
		return 1, 1
	}
	before := data[:offset-1]
	line := 1 + strings.Count(string(before), "\n")
	return line, int(offset) - (strings.LastIndexByte(string(before), '\n') + 1)
}

// Candidate makes a stored skill ready for dynamic validation again: its
// file must still parse, check and declare the signature its sidecar holds (a
// person may have edited it).
func (s Stored) Candidate(k *kb.KB) (*Candidate, []string) {
	r := s.Sidecar
	if s.Err != nil {
		return nil, []string{s.Err.Error()}
	}
	if r == nil {
		return nil, []string{fmt.Sprintf("%s has no validation history (%s.json): it was not discovered, so there is nothing to validate it against", s.Path, strings.TrimSuffix(filepath.Base(s.Path), ".cog"))}
	}
	side := strings.TrimSuffix(s.Path, ".cog") + ".json"
	// The sidecar is a file a person may edit too: what Static demanded of
	// the proposal must still hold, or the run proves less than it says
	// (a mutating skill must say so, or it would run on any target).
	p := Proposal{Name: r.Name, Description: r.Description, Params: r.Params, Effect: r.Effect, FinalState: r.FinalState}
	c := &Candidate{Proposal: p, Driver: r.Driver, Bodies: []Body{{Kind: r.Body, Source: string(s.Source)}}}
	for _, set := range r.ParameterSets {
		c.Sets = append(c.Sets, maps.Clone(set))
	}
	var why []string
	if dir := filepath.Base(filepath.Dir(s.Path)); r.Driver != dir {
		why = append(why, fmt.Sprintf("%s: is for the %q driver, but lies in the %s skills", side, r.Driver, dir))
	}
	if r.Effect != ReadOnly && r.Effect != Mutating {
		why = append(why, fmt.Sprintf("%s: effect must be %q or %q, not %q", side, ReadOnly, Mutating, r.Effect))
	}
	if len(c.Sets) < MinSets {
		why = append(why, fmt.Sprintf("%s: holds %d parameter sets, at least %d needed", side, len(c.Sets), MinSets))
	}
	for i, set := range c.Sets {
		for _, p := range r.Params {
			// A missing value would run as "", which a check like
			// q={query} passes on any search.
			if _, ok := set[p.Name]; !ok && p.Type != "secret" {
				why = append(why, fmt.Sprintf("%s: parameter_sets[%d]: no value for %q", side, i, p.Name))
			}
		}
	}
	for _, w := range finalStateErrors(c) {
		why = append(why, side+": "+w)
	}
	if len(why) > 0 {
		return nil, why
	}
	if _, why := checkBody(p, r.Driver, s.Path, string(s.Source), k); len(why) > 0 {
		return nil, why
	}
	c.Keeps = r.Body
	if r.Body == BodyAPI {
		// The API form is kept only while it ends where the UI steps do
		// (a site may change its form): run both again, as discovery did.
		if strings.TrimSpace(r.Steps) == "" {
			return nil, []string{fmt.Sprintf("%s: holds the api form but not the UI steps it stands for (steps)", side)}
		}
		if _, why := checkBody(p, r.Driver, side+" (steps)", r.Steps, k); len(why) > 0 {
			return nil, why
		}
		c.Bodies = []Body{{Kind: BodySteps, Source: r.Steps}, c.Bodies[0]}
	}
	return c, nil
}

// Keep adds the verdict of a new validation to a stored skill's sidecar.
func (s Stored) Keep(v Verdict) error {
	s.Sidecar.add(v)
	return s.Sidecar.save(strings.TrimSuffix(s.Path, ".cog") + ".json")
}
