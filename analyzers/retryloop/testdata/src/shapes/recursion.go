package shapes

import (
	"errors"
	"net/http"
	"time"
)

// A retry by recursion passes its attempt count on changed: n-1 in the
// call, or the parameter stepped before it (n--, n -= 1). The walk
// decides whether a failure leads to the call; a recursion on success
// (the next page, a child node) is no retry.

// The count stepped before the self-call.
func fetchStepped(c *http.Client, url string, tries int) (*http.Response, error) {
	resp, err := c.Get(url)
	if err != nil {
		tries--
		if tries <= 0 {
			return nil, err
		}
		time.Sleep(time.Second)
		return fetchStepped(c, url, tries) // want `retry site: shape=recursion bound=counter delay=fixed jitter=no ctx=unknown remote$`
	}
	return resp, nil
}

// Negatives.

// The next page on success, the count stepped: a walk, not a retry.
func pagesStepped(c *http.Client, urls []string, left int) error {
	if left == 0 || len(urls) == 0 {
		return nil
	}
	resp, err := c.Get(urls[0])
	if err != nil {
		return err
	}
	resp.Body.Close()
	left--
	return pagesStepped(c, urls[1:], left)
}

type node struct {
	url      string
	children []*node
}

// A tree walked with a depth limit: each call fetches another node.
func walkTree(c *http.Client, n *node, depth int) error {
	if depth == 0 {
		return nil
	}
	resp, err := c.Get(n.url)
	if err != nil {
		return err
	}
	resp.Body.Close()
	depth -= 1
	for _, ch := range n.children {
		if err := walkTree(c, ch, depth); err != nil {
			return err
		}
	}
	return nil
}

// A count stepped on failure but the call taken on success only.
func untilDone(c *http.Client, url string, budget int) error {
	resp, err := c.Get(url)
	if err != nil {
		budget--
		return errors.Join(err, errors.New("left: "+string(rune('0'+budget))))
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusPartialContent && budget > 0 {
		return untilDone(c, url+"?more", budget-1)
	}
	return nil
}

// Recursion through the variable a literal is assigned to.
func fetchClosure(c *http.Client, url string) (*http.Response, error) {
	var try func(n int) (*http.Response, error)
	try = func(n int) (*http.Response, error) {
		resp, err := c.Get(url)
		if err != nil && n < 3 {
			time.Sleep(time.Second)
			return try(n + 1) // want `retry site: shape=recursion bound=counter delay=fixed jitter=no ctx=unknown remote$`
		}
		return resp, err
	}
	return try(0)
}

// Negatives.

// A tree visited through a literal's variable.
func visitTree(c *http.Client, root *node) error {
	var visit func(n *node, depth int) error
	visit = func(n *node, depth int) error {
		if depth > 8 {
			return nil
		}
		resp, err := c.Get(n.url)
		if err != nil {
			return err
		}
		resp.Body.Close()
		for _, ch := range n.children {
			if err := visit(ch, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return visit(root, 0)
}

// Pages fetched through a literal's variable, the next on success.
func pagesClosure(c *http.Client, urls []string) error {
	var page func(i int) error
	page = func(i int) error {
		if i >= len(urls) {
			return nil
		}
		resp, err := c.Get(urls[i])
		if err != nil {
			return err
		}
		resp.Body.Close()
		return page(i + 1)
	}
	return page(0)
}
