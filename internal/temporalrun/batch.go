package temporalrun

import (
	"context"
	"errors"
	"fmt"
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
)

// Start starts the batch workflow with id on the task queue.
func Start(ctx context.Context, cl client.Client, queue, id string, b Batch) error {
	_, err := cl.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, BatchWorkflowName, b)
	return err
}

// Wait waits for the batch workflow to end and returns its rows.
func Wait(ctx context.Context, cl client.Client, id string) ([]RowResult, error) {
	var rows []RowResult
	err := cl.GetWorkflow(ctx, id, "").Get(ctx, &rows)
	return rows, err
}

// Cancel asks the batch to stop: each row stops between steps.
func Cancel(ctx context.Context, cl client.Client, id string) error {
	return cl.CancelWorkflow(ctx, id, "")
}

// Rows reads the state of each of a batch's n rows from the server, from
// the row workflows themselves, so it needs no worker running: pending
// (not started), running, or the row's result once it ended.
func Rows(ctx context.Context, cl client.Client, id string, n int) ([]RowResult, error) {
	out := make([]RowResult, n)
	for i := range out {
		r, err := rowState(ctx, cl, RowWorkflowID(id, i+1))
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", i+1, err)
		}
		r.Row = i + 1
		out[i] = r
	}
	return out, nil
}

func rowState(ctx context.Context, cl client.Client, id string) (RowResult, error) {
	d, err := cl.DescribeWorkflowExecution(ctx, id, "")
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return RowResult{Status: StatusPending}, nil
	}
	if err != nil {
		return RowResult{}, err
	}
	switch st := d.GetWorkflowExecutionInfo().GetStatus(); st {
	case enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING:
		return RowResult{Status: "running"}, nil
	case enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		var r RowResult
		if err := cl.GetWorkflow(ctx, id, "").Get(ctx, &r); err != nil {
			return RowResult{}, err
		}
		return r, nil
	case enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED:
		return RowResult{Status: StatusCanceled}, nil
	default:
		return RowResult{Status: "failed", Failure: "row workflow " + strings.ToLower(strings.TrimPrefix(st.String(), "WORKFLOW_EXECUTION_STATUS_"))}, nil
	}
}
