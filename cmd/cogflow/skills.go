package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/internal/discover"
	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/explore"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/trace"
	"github.com/cogflow/cogflow/stdlib/kb"
	"github.com/cogflow/cogflow/stdlib/skills"
)

const skillsArgs = `discover --driver browser --url URL [--task TEXT] [--budget N] [--yes] [--safe URL …] | list [--driver D] | show NAME [--driver D] | validate [NAME …] [--url URL] [--yes] [--safe URL …] [--secret-env name=VAR …] [--dir .cogflow] [--headed] [--browser-url ws://…] [--chrome PATH]`

const skillsHelpText = `Skills are skill declarations a task calls without declaring them: the ones
each driver ships (stdlib/skills) and the project's own, in
<dir>/skills/<driver>/NAME.cog.

discover explores the site from --url (following --task when given, else
surveying it), asks the model to propose skills from what it saw, and
validates each proposal: statically (it parses, checks and declares the
parameters it says), then dynamically (it runs once per generated parameter
set, from --url, and the final state it promised must hold). Only skills
that pass are written, NAME.cog with their description and a usage example,
and NAME.json with their final-state check and validation history (never a
secret). A mutating skill (it submits, saves, sends) is run only on a target
you named safe with --safe URL, or with --yes; otherwise it is reported "not
validated" and not written.

validate runs the dynamic validation of stored skills again (all of the
driver's when no NAME is given); a secret parameter's value is never stored,
so give it with --secret-env name=VAR. See docs/skills.md.`

// stringsFlag is a repeatable flag.
type stringsFlag []string

func (f *stringsFlag) String() string { return strings.Join(*f, ",") }

// Set implements flag.Value.
func (f *stringsFlag) Set(s string) error { *f = append(*f, s); return nil }

// skillsFlags are the flags of cogflow skills.
type skillsFlags struct {
	driver, url, task, dir, browserURL, chrome *string
	budget                                     *int
	yes, headed                                *bool
	safe                                       stringsFlag
	secretEnv                                  inputFlags
	// driverGiven is set when --driver was given: list shows every
	// driver's skills without it.
	driverGiven bool
}

// runSkills is `cogflow skills discover|list|show|validate`.
func runSkills(c *cli, args []string) int {
	sub := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	fs := c.newFlags("skills")
	f := skillsFlags{
		driver:     fs.String("driver", trace.DriverBrowser, "the driver whose skills: browser, android or uia"),
		url:        fs.String("url", "", "discover: the page to start exploring and validating from; validate: instead of the one a skill was discovered from"),
		task:       fs.String("task", "", "discover: a task to follow while exploring (without it, the site is surveyed)"),
		dir:        fs.String("dir", defaultProjectDir, "the project folder; skills go to DIR/skills/DRIVER"),
		browserURL: fs.String("browser-url", "", "use a running browser (ws://… or http://host:port)"),
		chrome:     fs.String("chrome", "", "the Chromium executable"),
		budget:     fs.Int("budget", explore.DefaultBudget, "discover: the most exploration steps"),
		yes:        fs.Bool("yes", false, "run mutating skills (and irreversible exploration steps) on any target"),
		headed:     fs.Bool("headed", false, "show the browser window"),
		secretEnv:  inputFlags{},
	}
	fs.Var(&f.safe, "safe", "a target that mutating skills may change: `URL` (repeatable); a page under it is safe")
	fs.Var(f.secretEnv, "secret-env", "validate: a secret parameter's value from an environment variable, `name=VAR` (repeatable)")
	rest, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	fs.Visit(func(fl *flag.Flag) { f.driverGiven = f.driverGiven || fl.Name == "driver" })
	if !slices.Contains(skills.Drivers, *f.driver) {
		fmt.Fprintf(c.stderr, "cogflow skills: --driver must be one of %s, not %q\n", strings.Join(skills.Drivers, ", "), *f.driver)
		return exitUsage
	}
	switch sub {
	case "discover":
		return c.skillsDiscover(f, rest)
	case "list":
		return c.skillsList(f, rest)
	case "show":
		return c.skillsShow(f, rest)
	case "validate":
		return c.skillsValidate(f, rest)
	case "":
		fs.Usage()
		return exitUsage
	}
	fmt.Fprintf(c.stderr, "cogflow skills: unknown subcommand %q (discover, list, show, validate)\n", sub)
	return exitUsage
}

// safeTarget reports whether target lies under one of the URLs named safe:
// the same scheme and host, and a path under the safe one's.
func safeTarget(target string, safe []string) bool {
	t, err := url.Parse(target)
	if err != nil {
		return false
	}
	tp := loadedPath(t.Path)
	for _, s := range safe {
		u, err := url.Parse(s)
		if err != nil || u.Host == "" {
			continue
		}
		under := strings.TrimSuffix(loadedPath(u.Path), "/")
		if strings.EqualFold(u.Scheme, t.Scheme) && strings.EqualFold(u.Host, t.Host) &&
			(under == "" || tp == under || strings.HasPrefix(tp, under+"/")) {
			return true
		}
	}
	return false
}

// loadedPath is the path a browser loads for a URL's (decoded) path: a
// backslash is a slash and dot segments are resolved, so /safe/../admin
// is /admin, not a page under /safe.
func loadedPath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if p == "" {
		return ""
	}
	return path.Clean("/" + p)
}

// safeCheck is the target named safe, which mutating skills may not leave;
// nil with --yes (any target).
func (f skillsFlags) safeCheck() func(string) bool {
	if *f.yes {
		return nil
	}
	return func(u string) bool { return safeTarget(u, f.safe) }
}

// skillsDiscover explores, asks for proposals, validates and writes.
func (c *cli) skillsDiscover(f skillsFlags, rest []string) int {
	switch {
	case len(rest) > 0:
		fmt.Fprintf(c.stderr, "cogflow skills discover: unexpected argument %q\n", rest[0])
		return exitUsage
	case *f.driver != trace.DriverBrowser:
		fmt.Fprintf(c.stderr, "cogflow skills discover: only --driver browser discovers skills so far, not %q\n", *f.driver)
		return exitUsage
	case *f.url == "":
		fmt.Fprintln(c.stderr, "cogflow skills discover: give the site to explore with --url URL")
		return exitUsage
	}
	for _, s := range f.safe {
		if u, err := url.Parse(s); err != nil || u.Host == "" {
			fmt.Fprintf(c.stderr, "cogflow skills discover: --safe %q is not an absolute URL\n", s)
			return exitUsage
		}
	}
	conf, cdiags := config.Load(".")
	if cdiags.HasErrors() {
		conf.Render(c.stderr, cdiags)
		return exitBadInput
	}
	model, err := llm.FromConfig(conf)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow skills discover: %v\n", err)
		return exitUsage
	}
	if model == nil {
		fmt.Fprintln(c.stderr, "cogflow skills discover: no model is configured (cogflow.hcl or OPENAI_API_KEY); a model proposes the skills")
		return exitUsage
	}
	k, kdiags := cogflow.ProjectKB(*f.dir)
	if kdiags.HasErrors() {
		c.renderFiles(kdiags)
		return exitBadInput
	}
	ctx, stop := context.WithCancel(cmp.Or[context.Context](c.ctx, context.Background()))
	defer stop()
	d, code := c.openSkillsDriver(ctx, f)
	if d == nil {
		return code
	}
	defer d.Close()
	o := discover.Options{Driver: *f.driver, Start: *f.url, Task: *f.task, Budget: *f.budget, Model: model,
		ModelName: conf.LLM.TextModel, Mutate: *f.yes || safeTarget(*f.url, f.safe), Safe: f.safeCheck(), Knowledge: k, ProjectDir: *f.dir,
		OnStep: func(s explore.Step) { fmt.Fprintf(c.stderr, "explore: %s\n", s) }}
	rep, err := discover.Discover(ctx, d, o)
	if rep != nil {
		c.printVerdicts(rep.Verdicts)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow skills discover: %v\n", err)
		if ctx.Err() != nil {
			return exitInterrupt
		}
		return exitStepFailed
	}
	accepted := 0
	for _, v := range rep.Verdicts {
		if v.Accepted {
			accepted++
		}
	}
	fmt.Fprintf(c.stderr, "cogflow skills discover: %s mode, %d exploration steps, %d model calls; %d of %d proposed skills validated and written to %s\n",
		rep.Mode, rep.Steps, rep.ModelCalls, accepted, len(rep.Verdicts), discover.SkillsDir(*f.dir, *f.driver))
	if accepted == 0 {
		return exitStepFailed
	}
	return exitOK
}

// printVerdicts prints one block per skill: accepted or not, and why.
func (c *cli) printVerdicts(vs []discover.Verdict) {
	for _, v := range vs {
		runs := fmt.Sprintf("%d validation runs", len(v.Runs))
		if len(v.Runs) == 1 {
			runs = "1 validation run"
		}
		switch {
		case v.Accepted:
			fmt.Fprintf(c.stdout, "accepted %s (%s; the file holds the %s)\n", v.Name, runs, v.Body.Kind)
		case len(v.Runs) == 0 && len(v.Why) == 1 && v.Why[0] == discover.NotSafe:
			fmt.Fprintf(c.stdout, "not validated %s\n", v.Name)
		default:
			fmt.Fprintf(c.stdout, "rejected %s (%s)\n", v.Name, runs)
		}
		for _, w := range v.Why {
			fmt.Fprintf(c.stdout, "  %s\n", strings.ReplaceAll(w, "\n", "\n  "))
		}
	}
}

// openSkillsDriver opens the browser for discovery or validation.
func (c *cli) openSkillsDriver(ctx context.Context, f skillsFlags) (driver.Driver, int) {
	d, err := driver.Open(ctx, *f.driver, driver.Options{Headed: *f.headed, RemoteURL: *f.browserURL, Executable: *f.chrome})
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow skills: %v\n", err)
		if errors.Is(err, driver.ErrUnavailable) {
			return nil, exitNoDriver
		}
		return nil, exitStepFailed
	}
	return d, exitOK
}

// listDriverSkills prints the skills of one driver, under a heading when
// several drivers are listed; false when a sidecar is broken.
func (c *cli) listDriverSkills(lib *skills.Library, dir, driver string, heading bool) (bool, error) {
	stored, err := discover.List(dir, driver)
	if err != nil {
		return false, err
	}
	sidecars := map[string]*discover.Sidecar{}
	ok := true
	for _, s := range stored {
		if s.Err != nil {
			fmt.Fprintf(c.stderr, "cogflow skills list: %v\n", s.Err)
			ok = false
		}
		sidecars[strings.TrimSuffix(baseName(s.Path), ".cog")] = s.Sidecar
	}
	if heading {
		fmt.Fprintf(c.stdout, "%s:\n", driver)
	}
	for _, s := range lib.All(driver) {
		from := "shipped"
		if s.Project {
			from = "project"
			if r := sidecars[s.Name()]; r != nil {
				from = "project, " + r.Effect + ", " + lastState(r)
			}
		}
		fmt.Fprintf(c.stdout, "%-20s %s  (%s)\n", s.Name(), s.Description(), from)
	}
	return ok, nil
}

// skillsList prints the skills tasks of the driver may call: the shipped
// ones and the project's, with the validation state of discovered ones.
func (c *cli) skillsList(f skillsFlags, rest []string) int {
	if len(rest) > 0 {
		fmt.Fprintf(c.stderr, "cogflow skills list: unexpected argument %q\n", rest[0])
		return exitUsage
	}
	lib, ds := cogflow.ProjectSkills(*f.dir)
	if ds.HasErrors() {
		c.renderFiles(ds)
	}
	if lib == nil {
		return exitBadInput
	}
	drivers := []string{*f.driver}
	if !f.driverGiven {
		drivers = skills.Drivers
	}
	broken := false
	for _, driver := range drivers {
		ok, err := c.listDriverSkills(lib, *f.dir, driver, len(drivers) > 1)
		if err != nil {
			return c.readError("skills list", err)
		}
		broken = broken || !ok
	}
	if ds.HasErrors() || broken {
		return exitBadInput
	}
	return exitOK
}

func baseName(p string) string { return p[strings.LastIndexAny(p, `/\`)+1:] }

// lastState says how the latest validation went.
func lastState(r *discover.Sidecar) string {
	v := r.Last()
	switch {
	case v == nil:
		return "never validated"
	case v.Accepted:
		return fmt.Sprintf("validated %s on %d runs", v.At.Format("2006-01-02 15:04"), len(v.Runs))
	}
	return fmt.Sprintf("FAILED validation %s", v.At.Format("2006-01-02 15:04"))
}

// skillsShow prints a skill's file and, for a discovered one, its sidecar.
func (c *cli) skillsShow(f skillsFlags, rest []string) int {
	if len(rest) != 1 {
		fmt.Fprintln(c.stderr, "cogflow skills show: give one skill's name")
		return exitUsage
	}
	s, err := discover.Find(*f.dir, *f.driver, rest[0])
	if err != nil {
		if src, serr := skills.StdlibSource(*f.driver); serr == nil && skills.Stdlib().Lookup(*f.driver, rest[0]) != nil {
			sk := skills.Stdlib().Lookup(*f.driver, rest[0])
			fmt.Fprintf(c.stdout, "# shipped: stdlib/skills/%s.cog\n%s\n", *f.driver, declSource(src, sk))
			return exitOK
		}
		return c.readError("skills show", err)
	}
	fmt.Fprintf(c.stdout, "# %s\n%s", s.Path, s.Source)
	r := s.Sidecar
	if r == nil {
		fmt.Fprintln(c.stdout, "(written by a person: no validation history)")
		return exitOK
	}
	fmt.Fprintf(c.stdout, "\neffect: %s\nstarts at: %s\nfinal state: %s\n", r.Effect, r.Start, finalStateText(r.FinalState))
	for i, set := range r.ParameterSets {
		fmt.Fprintf(c.stdout, "parameter set %d: %s\n", i+1, setText(r, set))
	}
	if r.Steps != "" {
		fmt.Fprintf(c.stdout, "the UI steps it translates:\n%s\n", r.Steps)
	}
	fmt.Fprintf(c.stdout, "last validation: %s\n", lastState(r))
	if v := r.Last(); v != nil {
		for _, run := range v.Runs {
			fmt.Fprintf(c.stdout, "  %s, set %d: %s (%d ms)\n", run.Body, run.Set, okText(run), run.Millis)
		}
		for _, w := range v.Why {
			fmt.Fprintf(c.stdout, "  %s\n", w)
		}
	}
	return exitOK
}

func okText(r discover.Run) string {
	if r.OK {
		return "ok"
	}
	return "failed: " + r.Reason
}

func finalStateText(f discover.FinalState) string {
	var parts []string
	if f.URLContains != "" {
		parts = append(parts, fmt.Sprintf("the address contains %q", f.URLContains))
	}
	for _, s := range f.Shows {
		parts = append(parts, fmt.Sprintf("the screen shows %q", s))
	}
	for _, e := range f.Elements {
		parts = append(parts, "the screen holds "+e)
	}
	return strings.Join(parts, "; ")
}

func setText(r *discover.Sidecar, set map[string]string) string {
	var parts []string
	for _, p := range r.Params {
		v, ok := set[p.Name]
		if !ok || p.Type == "secret" {
			v = "(secret, not stored)"
		} else {
			v = fmt.Sprintf("%q", v)
		}
		parts = append(parts, p.Name+" = "+v)
	}
	return strings.Join(parts, ", ")
}

// declSource is a shipped skill's text with its comment.
func declSource(src []byte, s *skills.Skill) string {
	start := s.Decl.Range.Start.Offset
	if cs := s.Decl.Comments.Leading; len(cs) > 0 {
		start = min(start, cs[0].Range.Start.Offset)
	}
	return string(src[start:s.Decl.Range.End.Offset])
}

// skillsValidate runs the dynamic validation of stored skills again.
func (c *cli) skillsValidate(f skillsFlags, names []string) int {
	stored, err := discover.List(*f.dir, *f.driver)
	if err != nil {
		return c.readError("skills validate", err)
	}
	var todo []discover.Stored
	for _, s := range stored {
		name := strings.TrimSuffix(baseName(s.Path), ".cog")
		if (len(names) == 0 && (s.Sidecar != nil || s.Err != nil)) || slices.Contains(names, name) {
			todo = append(todo, s)
		}
	}
	for _, n := range names {
		if !slices.Contains(skillNames(todo), n) {
			fmt.Fprintf(c.stderr, "cogflow skills validate: no skill %q in %s\n", n, discover.SkillsDir(*f.dir, *f.driver))
			return exitUsage
		}
	}
	if len(todo) == 0 {
		fmt.Fprintf(c.stderr, "cogflow skills validate: no discovered skill in %s\n", discover.SkillsDir(*f.dir, *f.driver))
		return exitOK
	}
	secrets := map[string]string{}
	for name, env := range f.secretEnv {
		v, ok := os.LookupEnv(env)
		if !ok {
			fmt.Fprintf(c.stderr, "cogflow skills validate: --secret-env %s=%s: the variable is not set\n", name, env)
			return exitUsage
		}
		secrets[name] = v
	}
	k, kdiags := cogflow.ProjectKB(*f.dir)
	if kdiags.HasErrors() {
		c.renderFiles(kdiags)
		return exitBadInput
	}
	ctx, stop := context.WithCancel(cmp.Or[context.Context](c.ctx, context.Background()))
	defer stop()
	d, code := c.openSkillsDriver(ctx, f)
	if d == nil {
		return code
	}
	defer d.Close()
	failed := 0
	for _, s := range todo {
		v := c.validateStored(ctx, s, d, k, f, secrets)
		c.printVerdicts([]discover.Verdict{v})
		if !v.Accepted {
			failed++
		}
		if ctx.Err() != nil {
			return exitInterrupt
		}
	}
	fmt.Fprintf(c.stderr, "cogflow skills validate: %d of %d skills pass\n", len(todo)-failed, len(todo))
	if failed > 0 {
		return exitStepFailed
	}
	return exitOK
}

func skillNames(ss []discover.Stored) []string {
	var out []string
	for _, s := range ss {
		out = append(out, strings.TrimSuffix(baseName(s.Path), ".cog"))
	}
	return out
}

// validateStored validates one stored skill and keeps the verdict in its
// sidecar.
func (c *cli) validateStored(ctx context.Context, s discover.Stored, d driver.Driver, k *kb.KB, f skillsFlags, secrets map[string]string) discover.Verdict {
	name := strings.TrimSuffix(baseName(s.Path), ".cog")
	cand, why := s.Candidate(k)
	if cand == nil {
		return discover.Verdict{Name: name, Why: append([]string{"static validation failed"}, why...)}
	}
	start := cmp.Or(*f.url, s.Sidecar.Start)
	t := discover.Target{Driver: d, Start: start, Mutate: *f.yes || safeTarget(start, f.safe), Safe: f.safeCheck(), Knowledge: k, Secrets: secrets}
	v := discover.Dynamic(ctx, cand, t)
	if len(v.Runs) == 0 {
		return v // not run (mutating, not safe): nothing to keep
	}
	if err := s.Keep(v); err != nil {
		v.Why = append(v.Why, err.Error())
	}
	return v
}
