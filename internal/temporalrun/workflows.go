package temporalrun

import (
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// The batch workflow starts one child workflow per row and waits for them
// all. Children rather than one activity per row in the batch's own
// history: each row has its own id (cancel, inspect or reset one row with
// the temporal CLI), its own small history, and its own retries, while
// cancelling the batch still reaches every row. Rows run as fast as the
// workers' slots (--browsers) take them.

// BatchWorkflow is the batch workflow.
func BatchWorkflow(ctx workflow.Context, b Batch) ([]RowResult, error) {
	results := make([]RowResult, len(b.Rows))
	for i := range results {
		results[i] = RowResult{Row: i + 1, Status: StatusPending}
	}
	if err := workflow.SetQueryHandler(ctx, QueryRows, func() ([]RowResult, error) { return results, nil }); err != nil {
		return nil, err
	}
	sel := workflow.NewSelector(ctx)
	parent := workflow.GetInfo(ctx).WorkflowExecution.ID
	for i, inputs := range b.Rows {
		row := Row{Batch: b.ID, Workflow: b.Workflow, Source: b.Source, Task: b.Task, Row: i + 1, Inputs: inputs, Settings: b.Settings}
		cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
			WorkflowID: RowWorkflowID(parent, i+1),
			// A cancelled batch waits for each row to stop between steps.
			WaitForCancellation: true,
		})
		f := workflow.ExecuteChildWorkflow(cctx, RowWorkflowName, row)
		sel.AddFuture(f, func(f workflow.Future) {
			var r RowResult
			if err := f.Get(ctx, &r); err != nil {
				r = RowResult{Row: i + 1, Status: "failed", Failure: err.Error()}
				if temporal.IsCanceledError(err) {
					r.Status = StatusCanceled
				}
			}
			results[i] = r
		})
	}
	for range b.Rows {
		sel.Select(ctx)
	}
	if ctx.Err() != nil {
		return results, temporal.NewCanceledError("batch cancelled")
	}
	return results, nil
}

// RowWorkflow runs one row as one activity: one browser session on one
// worker, retried on another worker when this one dies.
func RowWorkflow(ctx workflow.Context, r Row) (RowResult, error) {
	s := r.Settings.withDefaults()
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: s.RowTimeout,
		HeartbeatTimeout:    s.HeartbeatTimeout,
		// A cancelled row stops between steps: the workflow waits for the
		// activity to say it stopped.
		WaitForCancellation: true,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    time.Second,
			BackoffCoefficient: 2,
			MaximumInterval:    30 * time.Second,
			MaximumAttempts:    int32(s.Attempts),
		},
	})
	var res RowResult
	err := workflow.ExecuteActivity(ctx, RunRowActivity, r).Get(ctx, &res)
	var canceled *temporal.CanceledError
	if errors.As(err, &canceled) || (err != nil && ctx.Err() != nil) {
		return RowResult{Row: r.Row, Status: StatusCanceled}, temporal.NewCanceledError("row cancelled")
	}
	return res, err
}
