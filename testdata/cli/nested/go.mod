module example.com/nested

go 1.22
