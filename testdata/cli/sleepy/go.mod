module example.com/sleepy

go 1.26
