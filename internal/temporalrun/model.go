package temporalrun

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/cogflow/cogflow/runtime/llm"
)

// A row's chat completions are Temporal activities too, so that a flaky
// endpoint is retried by the engine and each attempt shows in a history.
// An activity cannot start an activity: the row's model client (ModelClient,
// inside the row's activity) starts a small workflow per completion and
// waits for it. The workflow and its activity run on a task queue of their
// own (ModelQueue): on the row's queue a worker whose every slot runs a row
// would have no slot left for the completions its rows wait for.

// Names registered with Temporal for model calls (wire contract, as above).
const (
	ModelWorkflowName = "cogflow.model"
	ChatActivity      = "cogflow.chat"
)

// Model calls' retry policy: 1s, 2s, 4s, 8s between five attempts.
const (
	ModelAttempts        = 5
	modelInitialInterval = time.Second
	modelBackoff         = 2
	modelMaxInterval     = 30 * time.Second
	// modelSlack is added to a request's time-out for the activity's
	// start-to-close time-out: the request's own time-out fires first and
	// gives the endpoint's error.
	modelSlack = 15 * time.Second
)

// ModelQueue is the task queue of the model calls of rows on queue.
func ModelQueue(queue string) string { return queue + ".model" }

// ModelCall is the model workflow's input: one chat completion and the
// time-out of one attempt.
type ModelCall struct {
	Request llm.Request
	Timeout time.Duration
}

// ModelWorkflow runs one chat completion as one activity with the engine's
// retries: 429, 5xx, time-outs and connection errors are retried, any
// other failure (a 4xx) ends the call at once.
func ModelWorkflow(ctx workflow.Context, c ModelCall) (llm.Response, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: c.Timeout + modelSlack,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    modelInitialInterval,
			BackoffCoefficient: modelBackoff,
			MaximumInterval:    modelMaxInterval,
			MaximumAttempts:    ModelAttempts,
		},
	})
	var res llm.Response
	err := workflow.ExecuteActivity(ctx, ChatActivity, c).Get(ctx, &res)
	return res, err
}

// Chatter is the chat activity: one request to the endpoint, with the
// client's own retries off (the engine retries).
type Chatter struct {
	// Client is the configuration's client built with MaxRetries 0.
	Client llm.Client
}

// Chat is the activity. A failure the client would not retry (a 4xx other
// than 429, a response too large) is non-retryable for the engine too.
func (ch *Chatter) Chat(ctx context.Context, c ModelCall) (llm.Response, error) {
	res, err := ch.Client.Complete(ctx, c.Request)
	if err != nil {
		var le *llm.Error
		if errors.As(err, &le) && le.Temporary {
			return llm.Response{}, temporal.NewApplicationError(err.Error(), "llm")
		}
		return llm.Response{}, temporal.NewNonRetryableApplicationError(err.Error(), "llm", nil)
	}
	out := *res
	out.Attempts = int(activity.GetInfo(ctx).Attempt)
	return out, nil
}

// NewModelWorker serves ModelQueue(queue): the model workflow and the chat
// activity asking chat.
func NewModelWorker(cl client.Client, queue string, chat llm.Client) worker.Worker {
	w := worker.New(cl, ModelQueue(queue), worker.Options{WorkerStopTimeout: 10 * time.Second})
	w.RegisterWorkflowWithOptions(ModelWorkflow, workflowName(ModelWorkflowName))
	w.RegisterActivityWithOptions((&Chatter{Client: chat}).Chat, activityName(ChatActivity))
	return w
}

// ModelClient is the llm.Client of one row attempt on a worker: each
// Complete runs the model workflow on ModelQueue(Queue) and waits for it.
type ModelClient struct {
	Client  client.Client
	Queue   string        // the rows' task queue
	Timeout time.Duration // one request's time-out (the configuration's)
	n       atomic.Int64  // completions asked so far: the workflow ids' counter
}

// ModelWorkflowID is the id of the n-th model call (1 for the first) of
// attempt of the row whose workflow id is rowID: a row attempt's calls
// never collide with another attempt's.
func ModelWorkflowID(rowID string, attempt int, n int64) string {
	return fmt.Sprintf("%s/attempt-%d/model-%d", rowID, attempt, n)
}

// Complete implements llm.Client. ctx is the row activity's: its workflow
// id and attempt name the call.
func (m *ModelClient) Complete(ctx context.Context, r llm.Request) (*llm.Response, error) {
	id := m.callID(ctx)
	timeout := m.Timeout
	if timeout <= 0 {
		timeout = llm.DefaultTimeout
	}
	started := time.Now()
	run, err := m.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: ModelQueue(m.Queue),
		// A call that outlives all its attempts is over anyway.
		WorkflowExecutionTimeout: ModelAttempts*(timeout+modelSlack) + 2*modelMaxInterval,
	}, ModelWorkflowName, ModelCall{Request: r, Timeout: timeout})
	if err != nil {
		return nil, fmt.Errorf("llm: starting the model call %s on Temporal: %w", id, err)
	}
	var res llm.Response
	if err := run.Get(ctx, &res); err != nil {
		if ctx.Err() != nil {
			_ = m.Client.CancelWorkflow(context.WithoutCancel(ctx), id, run.GetRunID())
			return nil, fmt.Errorf("llm: model call %s stopped: %w", id, ctx.Err())
		}
		return nil, fmt.Errorf("%s (model call %s on Temporal)", callFailure(err), id)
	}
	res.Latency = time.Since(started)
	return &res, nil
}

func (m *ModelClient) callID(ctx context.Context) string {
	n := m.n.Add(1)
	if activity.IsActivity(ctx) {
		info := activity.GetInfo(ctx)
		return ModelWorkflowID(info.WorkflowExecution.ID, int(info.Attempt), n)
	}
	// Not inside a row (no caller does this today): an id of its own.
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return fmt.Sprintf("cogflow-model-%s-%d", hex.EncodeToString(b), n)
}

// callFailure is the endpoint's error as the last attempt saw it, without
// the workflow and activity wrappers around it.
func callFailure(err error) string {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return app.Error()
	}
	var timeout *temporal.TimeoutError
	if errors.As(err, &timeout) {
		return "llm: the model call timed out: " + timeout.Error()
	}
	return err.Error()
}
