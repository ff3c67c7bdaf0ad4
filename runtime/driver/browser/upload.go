package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cogflow/cogflow/runtime/driver"
)

// upload sets the files of an <input type=file> as a person's file chooser
// does (DOM.setFileInputFiles, which fires input and change). The target
// may be the file input, a label for it, or an element holding exactly one.
// Relative paths are taken from the working directory; every file must
// exist, since a missing one would upload nothing and report ok.
func (d *Driver) upload(ctx context.Context, t *tab, e *driver.Element, files []string) error {
	if e == nil {
		return errors.New("upload needs a target element")
	}
	if len(files) == 0 {
		return errors.New("upload needs at least one file")
	}
	abs := make([]string, len(files))
	for i, f := range files {
		p, err := filepath.Abs(f)
		if err != nil {
			return err
		}
		st, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("the file to upload %s: %w", f, err)
		}
		if st.IsDir() {
			return fmt.Errorf("the file to upload %s is a directory", f)
		}
		abs[i] = p
	}
	realm, o := spec(e)
	var res struct {
		R    string `json:"r"`
		Mark int    `json:"mark"`
	}
	if err := t.run(ctx, realm, []op{{"op": "fileInput", "t": o, "n": len(files)}}, &res); err != nil {
		return err
	}
	obj, err := t.nodeObject(ctx, realm, res.R)
	if err != nil {
		return err
	}
	if err := t.call(ctx, "DOM.setFileInputFiles", map[string]any{"files": abs, "objectId": obj}, nil); err != nil {
		return err
	}
	return d.settleIn(ctx, t, realm, res.Mark)
}

// nodeObject returns the remote object of the element a ref names in a
// realm (the top document, or a frame's).
func (t *tab) nodeObject(ctx context.Context, realm, ref string) (string, error) {
	var el evalResult
	var err error
	if realm == "" {
		err = t.call(ctx, "Runtime.evaluate", map[string]any{
			"expression": "window.__cogflow_v1 && window.__cogflow_v1.node(" + jsString(ref) + ")",
		}, &el)
	} else {
		var w string
		if w, err = t.frameWindow(ctx, realm); err != nil {
			return "", err
		}
		err = t.call(ctx, "Runtime.callFunctionOn", map[string]any{
			"objectId":            w,
			"functionDeclaration": "function(r) { return this.__cogflow_v1 && this.__cogflow_v1.node(r); }",
			"arguments":           []any{map[string]any{"value": ref}},
		}, &el)
	}
	if err == nil {
		err = el.err()
	}
	if err != nil {
		return "", err
	}
	if el.Result.ObjectID == "" {
		return "", fmt.Errorf("the element %s is no longer on the page", ref)
	}
	return el.Result.ObjectID, nil
}
