package browser

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/cogflow/cogflow/runtime/driver"
)

// The API-first actions (AXIS): set_value, submit_form, download_link and
// read_table act through the page's own interfaces, in api.js, and check
// their effect, so that a step that cannot be sure it acted fails.

// setValue sets the field's value without key events (api.js apiSetValue:
// the value setter, then input and change) and fails unless the field
// holds the value after the page's handlers ran. secret masks the value in
// the messages.
func (d *Driver) setValue(ctx context.Context, t *tab, e *driver.Element, text string, secret bool) error {
	if e == nil {
		return errors.New("set_value needs a target element")
	}
	var res struct {
		Mark int `json:"mark"`
	}
	realm, err := runOn(ctx, t, e, op{"op": "apiSetValue", "text": text, "sec": secret}, &res)
	if err != nil {
		return err
	}
	return d.settleIn(ctx, t, realm, res.Mark)
}

// submitForm submits the form the element is in (form.requestSubmit, with
// a submit button target as the submitter) and waits for what it loads.
func (d *Driver) submitForm(ctx context.Context, t *tab, e *driver.Element) (*driver.Window, error) {
	if e == nil {
		return nil, errors.New("submit_form needs a target element")
	}
	var res struct {
		Mark int `json:"mark"`
	}
	realm, err := runOn(ctx, t, e, op{"op": "apiSubmit"}, &res)
	if err != nil {
		return nil, err
	}
	if err := d.settleIn(ctx, t, realm, res.Mark); err != nil {
		return nil, err
	}
	return d.window(ctx, t), nil
}

// readTable reads the table's cells, row by row (api.js apiReadTable).
func (d *Driver) readTable(ctx context.Context, t *tab, e *driver.Element) ([][]string, error) {
	if e == nil {
		return nil, errors.New("read_table needs a target element")
	}
	var res struct {
		Rows [][]string `json:"rows"`
	}
	if _, err := runOn(ctx, t, e, op{"op": "apiReadTable"}, &res); err != nil {
		return nil, err
	}
	if res.Rows == nil {
		res.Rows = [][]string{}
	}
	return res.Rows, nil
}

// fetched is api.js apiDownload's answer.
type fetched struct {
	Href        string `json:"href"`
	Data        []byte `json:"data"` // base64 in the JSON
	Size        int    `json:"size"`
	Disposition string `json:"disposition"`
	Name        string `json:"name"` // the link's download attribute
}

// downloadLink fetches the link's target in the page (its cookies, its
// origin's rules) and writes it to a file: to (a file, or a folder that
// exists), or the working directory. It never overwrites: an explicit
// file that exists fails the step; a name chosen here gets " (1)", " (2)"…
// as a browser's downloads do. The result is the absolute path, checked
// to hold every byte fetched (and at least one).
func (d *Driver) downloadLink(ctx context.Context, t *tab, e *driver.Element, to string) (string, error) {
	if e == nil {
		return "", errors.New("download_link needs a target element")
	}
	var f fetched
	if _, err := runOn(ctx, t, e, op{"op": "apiDownload"}, &f); err != nil {
		return "", err
	}
	if len(f.Data) != f.Size {
		return "", fmt.Errorf("downloading %s: %d bytes arrived of %d", f.Href, len(f.Data), f.Size)
	}
	if len(f.Data) == 0 {
		return "", fmt.Errorf("downloading %s: the file is empty (0 bytes); nothing was written", f.Href)
	}
	dir, name, explicit, err := downloadTarget(to)
	if err != nil {
		return "", err
	}
	if !explicit {
		name = downloadName(f)
	}
	return writeNew(dir, name, explicit, f.Data)
}

// downloadTarget says where a download goes: to names a file (explicit)
// or a folder; empty is the working directory.
func downloadTarget(to string) (dir, name string, explicit bool, err error) {
	if to == "" {
		dir, err = os.Getwd()
		return dir, "", false, err
	}
	abs, err := filepath.Abs(to)
	if err != nil {
		return "", "", false, err
	}
	if st, err := os.Stat(abs); err == nil && st.IsDir() {
		return abs, "", false, nil
	}
	if strings.HasSuffix(to, "/") || strings.HasSuffix(to, string(filepath.Separator)) {
		return "", "", false, fmt.Errorf("download_link to: the folder %s does not exist", to)
	}
	dir = filepath.Dir(abs)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", "", false, fmt.Errorf("download_link to: the folder %s does not exist", filepath.Dir(to))
	}
	return dir, filepath.Base(abs), true, nil
}

// downloadName is the file name a browser would give the download: the
// response's Content-Disposition filename, the link's download attribute,
// or the last segment of the address; made safe as one file name.
func downloadName(f fetched) string {
	if _, params, err := mime.ParseMediaType(f.Disposition); err == nil {
		if n := safeName(params["filename"]); n != "" {
			return n
		}
	}
	if n := safeName(f.Name); n != "" {
		return n
	}
	if u, err := url.Parse(f.Href); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		if seg, err := url.PathUnescape(path.Base(u.Path)); err == nil {
			if n := safeName(seg); n != "" {
				return n
			}
		}
	}
	return "download"
}

// safeName keeps a name only as one plain file name: no folder part, no
// control characters, not "." or "..", not hidden.
func safeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '/' || r == '\\' || r == ':' {
			return '_'
		}
		return r
	}, strings.TrimSpace(s))
	s = strings.TrimLeft(s, ".")
	for len(s) > 200 { // bytes, as file systems count; whole characters kept
		_, n := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-n]
	}
	return strings.TrimSpace(s)
}

// writeNew writes data to a file in dir that did not exist before (O_EXCL,
// so not even a file made meanwhile is overwritten) and checks its size.
func writeNew(dir, name string, explicit bool, data []byte) (string, error) {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 0; i < 1000; i++ {
		p := filepath.Join(dir, name)
		if i > 0 {
			p = filepath.Join(dir, fmt.Sprintf("%s (%d)%s", stem, i, ext))
		}
		fh, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			if explicit {
				return "", fmt.Errorf("download_link to: %s exists; download_link never overwrites a file (remove it, or give another to:)", p)
			}
			continue
		}
		if err != nil {
			return "", fmt.Errorf("download_link: %w", err)
		}
		_, werr := fh.Write(data)
		if cerr := fh.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = os.Remove(p)
			return "", fmt.Errorf("download_link: writing %s: %w", p, werr)
		}
		st, err := os.Stat(p)
		if err != nil || st.Size() != int64(len(data)) {
			return "", fmt.Errorf("download_link: %s does not hold the %d bytes written (%v)", p, len(data), err)
		}
		return p, nil
	}
	return "", fmt.Errorf("download_link: %s and 999 numbered names after it exist in %s", name, dir)
}
