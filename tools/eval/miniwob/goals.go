package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/cogflow/cogflow/runtime/trace"
)

// The goal evaluation (`make eval-goals`, issue 19): each task is
// demonstrated once and its instruction, the `#query` text the
// demonstration saw, is the reference goal. The folder written is the one
// `cogflow eval goals DIR` reads: NAME.trace.json with NAME.goal.txt
// (the instruction, `param:` lines, `mask: #query`), plus the project's
// own demonstrations whose task titles are known. Then `cogflow eval
// goals` runs on it, with no model unless -model.

// goalVariants is how many other seeds' instructions are read to tell the
// instruction's values (what changes between instances) from its wording.
const goalVariants = 6

// projectDemos are the project's recorded demonstrations whose task
// titles are known (the workflows in examples/ compiled from them, or the
// recording's title), paths from the repository root.
var projectDemos = []struct{ name, file, goal string }{
	{"project-keyword", "runtime/trace/testdata/keyword.trace.json", "Look up a keyword and add a one-sentence summary of its introduction to my notes"},
	{"project-reading-list", "runtime/trace/testdata/reading_list.trace.json", "Fill in each paper's abstract from the wiki"},
	{"project-signup", "testdata/signup.trace.json", "Sign up"},
	{"project-devtools-form", "runtime/trace/testdata/devtools_form.trace.json", "Order form"},
	{"project-devtools-wiki", "runtime/trace/testdata/devtools_wiki.trace.json", "Wiki keyword search"},
}

// goalsAll builds the goal evaluation folder under the output folder and
// runs `cogflow eval goals` on it; withModel keeps the caller's model
// configuration for that command.
func (e *env) goalsAll(ctx context.Context, w io.Writer, root string, names []string, seed string, withModel bool) error {
	dir := filepath.Join(e.out, "goals")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	kept := 0
	for _, task := range names {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		line, err := e.goalDemo(ctx, dir, task, seed)
		if err == nil {
			kept++
		}
		fmt.Fprintf(w, "  %-24s %s\n", task, line)
	}
	for _, p := range projectDemos {
		if err := copyFile(filepath.Join(root, p.file), filepath.Join(dir, p.name+".trace.json")); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, p.name+".goal.txt"), []byte(p.goal+"\n"), 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\n%d MiniWoB++ demonstrations and %d of the project's in %s\n\n", kept, len(projectDemos), dir)
	cmd := e.command(ctx, "eval", "goals", dir, "--reasons")
	if withModel {
		cmd.Env = os.Environ()
	}
	cmd.Stdout, cmd.Stderr = w, os.Stderr
	return cmd.Run()
}

// goalDemo records one task and writes its trace and reference goal; the
// line says what happened.
func (e *env) goalDemo(ctx context.Context, dir, task, seed string) (string, error) {
	d := e.demonstrate(ctx, task, seed, scripts[task])
	if !d.solved() {
		err := fmt.Errorf("not solved (%s): left out", firstLine(d.err, "reward "+rewardText(d.reward)))
		return err.Error(), err
	}
	instruction := strings.TrimSpace(d.reward.Query)
	if instruction == "" {
		err := fmt.Errorf("the page reported no instruction: left out")
		return err.Error(), err
	}
	var others []string
	for k := 1; k <= goalVariants; k++ {
		q, err := e.instructionOf(ctx, task, fmt.Sprintf("%s-g%d", seed, k))
		if err != nil {
			return err.Error(), err
		}
		others = append(others, q)
	}
	params := instructionParams(instruction, others)
	name := "miniwob-" + task
	if err := copyFile(d.trace, filepath.Join(dir, name+".trace.json")); err != nil {
		return err.Error(), err
	}
	if err := os.WriteFile(filepath.Join(dir, name+".goal.txt"), []byte(referenceText(instruction, params)), 0o644); err != nil {
		return err.Error(), err
	}
	return fmt.Sprintf("%q params %q", instruction, params), nil
}

// referenceText is a task's NAME.goal.txt: the instruction, its values
// (`params: none` when every instance words it alike: the reader's
// default, the quoted parts, would count a fixed "x" as a value), and the
// mask of the instruction's element.
func referenceText(instruction string, params []string) string {
	var b strings.Builder
	b.WriteString(instruction + "\n")
	for _, p := range params {
		b.WriteString("param: " + p + "\n")
	}
	if len(params) == 0 {
		b.WriteString("params: none\n")
	}
	b.WriteString("mask: #query\n")
	return b.String()
}

// instructionOf opens an instance of the task in a tab of its own, starts
// its episode and reads the instruction.
func (e *env) instructionOf(ctx context.Context, task, seed string) (string, error) {
	url := e.srv.taskURL(task, seed, task+"-goal-"+seed)
	page, err := e.b.Context(ctx).Page(proto.TargetCreateTarget{URL: url})
	if err != nil {
		return "", fmt.Errorf("opening %s: %w", url, err)
	}
	defer page.Close()
	p := page.Timeout(20 * time.Second)
	if err := p.WaitLoad(); err != nil {
		return "", fmt.Errorf("loading %s: %w", url, err)
	}
	return readInstruction(p)
}

// readInstruction clicks the task's START cover if it shows one and waits
// for the instruction.
func readInstruction(p *rod.Page) (string, error) {
	for i := 0; i < 50; i++ {
		res, err := p.Eval(`() => { const c = document.getElementById('sync-task-cover'); if (c && c.offsetParent !== null) c.click();
			const q = document.getElementById('query'); return q ? q.textContent.replace(/\s+/g, ' ').trim() : ''; }`)
		if err != nil {
			return "", err
		}
		if q := res.Value.Str(); q != "" {
			return q, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return "", fmt.Errorf("no instruction in #query")
}

// instructionParams are the instruction's values: the runs of its words
// that other instances of the task word differently (a word every other
// instance shares, in order, is wording), each run cut at commas and
// stripped of quotes and final stops (a run holding "quoted" parts gives
// those parts). Instances worded another way (less
// than half the shorter one's words in common, or a quarter less than the
// closest one,
// like email-inbox's other actions) are not compared; with none left, the "quoted" parts are the values.
func instructionParams(main string, others []string) []string {
	words := strings.Fields(main)
	fixed := make([]bool, len(words))
	for i := range fixed {
		fixed[i] = true
	}
	marks := make([][]bool, len(others))
	ratio := make([]float64, len(others))
	best := 0.0
	for k, o := range others {
		ow := strings.Fields(o)
		marks[k] = lcsMarks(words, ow)
		n := 0
		for _, c := range marks[k] {
			if c {
				n++
			}
		}
		// Of the shorter: a list of values may be longer in one instance.
		ratio[k] = float64(n) / float64(max(min(len(words), len(ow)), 1))
		best = max(best, ratio[k])
	}
	compared := 0
	for k := range others {
		// Instances worded another way share less: only those about as
		// close as the closest are compared.
		if ratio[k] < 0.5 || ratio[k] < best-0.25 {
			continue
		}
		compared++
		for i := range fixed {
			fixed[i] = fixed[i] && marks[k][i]
		}
	}
	if compared == 0 {
		return quotedParts(main)
	}
	var out []string
	var run []string
	flush := func() {
		text := strings.Join(run, " ")
		if q := quotedParts(text); len(q) > 0 {
			// Quoted values with wording between them: the quoted parts.
			out, run = append(out, q...), nil
			return
		}
		for _, v := range strings.Split(text, ",") {
			if v = strings.Trim(strings.TrimSpace(v), `"'.!?;:`); v != "" {
				out = append(out, v)
			}
		}
		run = nil
	}
	for i, wd := range words {
		if fixed[i] {
			flush()
			continue
		}
		run = append(run, wd)
	}
	flush()
	return out
}

// lcsMarks marks the words of a that are in a longest common subsequence
// of a and b.
func lcsMarks(a, b []string) []bool {
	n, m := len(a), len(b)
	t := make([][]int, n+1)
	for i := range t {
		t[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	marks := make([]bool, n)
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i] == b[j]:
			marks[i] = true
			i, j = i+1, j+1
		case t[i+1][j] >= t[i][j+1]:
			i++
		default:
			j++
		}
	}
	return marks
}

// quotedParts are the "quoted" parts of s.
func quotedParts(s string) []string {
	var out []string
	parts := strings.Split(s, `"`)
	for i := 1; i < len(parts); i += 2 {
		if v := strings.TrimSpace(parts[i]); v != "" {
			out = append(out, v)
		}
	}
	return out
}

func copyFile(from, to string) error {
	tr, err := trace.Load(from) // a demonstration that does not load is no row
	if err != nil {
		return err
	}
	return trace.Save(to, tr)
}
