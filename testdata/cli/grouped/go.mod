module example.com/grouped

go 1.26
