package cogflow

import "github.com/cogflow/cogflow/runtime"

// CostModels name the models that would answer a run's dependencies and
// price their calls (runtime.CostModels).
type CostModels = runtime.CostModels

// Cost estimates what a run of the task called task ("": the first) would
// ask of the models: its cognitive dependencies, each once per run or once
// per iteration of a loop, with the calls, tokens and US dollars they
// cost. Write the estimate with its Write method. Nothing runs.
func (w *Workflow) Cost(task string, models CostModels) (*runtime.CostEstimate, error) {
	if w.diags.HasErrors() || w.file == nil {
		return nil, &LoadError{Name: w.name, Diags: w.diags}
	}
	t, err := w.Task(task)
	if err != nil {
		return nil, err
	}
	return runtime.EstimateCost(w.file, w.info, t, w.knowledge, models), nil
}

// Iterations are the loop iterations a cost estimate assumes: N for every
// loop, VAR=N for the loops over VAR, or while=N, until=N, repeat=N for
// those loops in place of their bound or computed count (Set parses each,
// as --iterations does); none given, a loop stays a "per iteration" term.
type Iterations = runtime.Iterations
