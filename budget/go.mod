module github.com/retrylint/retrylint/budget

go 1.22
