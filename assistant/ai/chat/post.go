package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
)

// Post sends body as JSON to url asking for an event stream, with header
// added, and returns the response of a 2xx status for the caller to read
// and close. A failure is an *Error, or ctx's cause when it was cancelled;
// a non-2xx response is turned into one by statusError.
func Post(ctx context.Context, hc *http.Client, url string, body any, header http.Header,
	statusError func(*http.Response) error) (*http.Response, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, &Error{Message: "encoding the request: " + err.Error(), Err: err}
	}
	req, err := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(data))
	if err != nil {
		return nil, &Error{Kind: Connect, Message: err.Error(), Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	for k, vs := range header {
		req.Header[k] = vs
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, &Error{Kind: Connect, Message: err.Error(), Err: err}
	}
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		return nil, statusError(resp)
	}
	return resp, nil
}
