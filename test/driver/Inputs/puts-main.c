/* The program of presimplify.test: user0 and user1 of puts.c print their lines. */
int user0(int), user1(int);
int main(void) { return user0(2) + user1(1) == 3 ? 0 : 1; }
