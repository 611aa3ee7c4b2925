CREATE TABLE dept (id int PRIMARY KEY);
CREATE TABLE emp (id int PRIMARY KEY, dept_id int CONSTRAINT emp_dept_fk REFERENCES dept (id), manager_id int REFERENCES emp (id));
