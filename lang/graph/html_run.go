package graph

import "time"

// RunFacts is what one run's journal says, as plain data: the caller
// reads the journal (this package imports nothing of the runtime) and
// passes what it found. Values in it are shown as they are, so they must
// already be redacted, as the journal's are.
type RunFacts struct {
	ID       string
	Outcome  string // "ok", "failed", "interrupted" …; "" while running or killed
	Error    string
	Started  time.Time
	Duration time.Duration
	// Warning, if set, is shown at the top of the page: why the run's
	// steps may not match this file's (the file changed since the run).
	Warning string
	// Steps are each step's executions, in journal order, by step name.
	Steps map[string][]StepFact
	// Inputs are the input values the run was given, as the journal wrote
	// them (a secret is "[secret]"); an input not in it had its default.
	Inputs map[string]string
}

// StepFact is one execution of a step as the journal tells it.
type StepFact struct {
	Outcome  string // ok, failed, skipped, declined, in_doubt
	Duration time.Duration
	Where    string // the loop item and branches it ran in, "" at the top level
	Value    string // the result, rendered
	Source   string // which answerer gave the value (literal, step, llm …)
	Error    string
	Args     []ArgFact
	// Branches are the branches it ran in, as the journal names them
	// ("line 5: else"); they match Node.Branch.
	Branches []string
}

// ArgFact is one resolved argument of a step.
type ArgFact struct {
	Name   string `json:"name,omitempty"` // "" for a positional argument
	Value  string `json:"value"`
	Source string `json:"source,omitempty"`
}

// stepStatus is the colour a step gets from its executions: failed if any
// failed, else in doubt, declined, ok, skipped; "none" if it did not run.
func stepStatus(facts []StepFact) string {
	seen := map[string]bool{}
	for _, f := range facts {
		seen[f.Outcome] = true
	}
	for _, s := range []string{"failed", "in_doubt", "declined", "ok", "skipped"} {
		if seen[s] {
			return s
		}
	}
	return "none"
}

// input is the value run was given for input node n.
func (r *RunFacts) input(n *Node) (string, bool) {
	if r == nil || n.Kind != "input" {
		return "", false
	}
	v, ok := r.Inputs[n.ID]
	return shortLabelKeepLines(v), ok
}

// inside counts, for each cluster, the executions of the steps that ran in
// it: for a branch, those the journal says ran in that branch (its name,
// Node.Branch); for a loop or an explore block, those of the steps in its
// body. Nil without a run.
func (r *RunFacts) inside(g *Graph) map[string]int {
	if r == nil {
		return nil
	}
	counts := map[string]int{}
	parent, kind := map[string]string{}, map[string]string{}
	for _, n := range g.Nodes {
		parent[n.ID], kind[n.ID] = n.Loop, n.Kind
		if n.cluster() {
			counts[n.ID] = 0
		}
	}
	branches := map[string][]string{} // journal's branch name → branch nodes
	for _, n := range g.Nodes {
		if n.Branch != "" {
			branches[n.Branch] = append(branches[n.Branch], n.ID)
		}
	}
	for _, n := range g.Nodes {
		for _, f := range r.Steps[n.ID] {
			for _, b := range f.Branches {
				for _, id := range branches[b] {
					counts[id]++
				}
			}
			if n.Kind != "step" {
				continue
			}
			for c := parent[n.ID]; c != ""; c = parent[c] {
				if kind[c] != "branch" {
					counts[c]++
				}
			}
		}
	}
	return counts
}
