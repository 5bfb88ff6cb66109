import test from "ava";
import { Container, ContainerModule } from "inversify";
import { token } from "../../core/shared/token.js";
import { bindClass, bindFactory } from "../../hosts/bind-class.js";

interface Greeting {
  readonly text: string;
}
const Greeting = token<Greeting>("test.Greeting");
const Name = token<string>("test.Name");
const Times = token<number>("test.Times");
const Shout = token<string>("test.Shout");

class Greeter {
  constructor(
    private readonly greeting: Greeting,
    private readonly name: string,
    private readonly times: number,
  ) {}

  greet(): string {
    return Array.from({ length: this.times }, () => `${this.greeting.text} ${this.name}!`).join(" ");
  }
}

class Host {
  constructor(readonly greeter: Greeter) {}
}

const values = new ContainerModule((container) => {
  container.bind(Greeting).toConstantValue({ text: "Hello" });
  container.bind(Name).toConstantValue("Ada");
  container.bind(Times).toConstantValue(2);
});

test("a class is built from its tokens and classes, in constructor order", (t) => {
  const container = new Container({ defaultScope: "Singleton" });
  container.load(
    values,
    new ContainerModule((container) => {
      bindClass(container, Greeter, [Greeting, Name, Times]);
      bindClass(container, Host, [Greeter]);
    }),
  );
  t.is(container.get(Host).greeter.greet(), "Hello Ada! Hello Ada!");
});

test("a dependency list that does not match the constructor does not compile", (t) => {
  // What this test proves is that the build passes: each line below must be a type error.
  const mismatches = new ContainerModule((container) => {
    // @ts-expect-error the name and the greeting swapped
    bindClass(container, Greeter, [Name, Greeting, Times]);
    // @ts-expect-error one dependency short
    bindClass(container, Greeter, [Greeting, Name]);
    // @ts-expect-error a bare symbol does not say what it gives
    bindClass(container, Greeter, [Symbol.for("test.Greeting"), Name, Times]);
    // @ts-expect-error a class that gives something else
    bindClass(container, Host, [Host]);
  });
  t.true(mismatches instanceof ContainerModule);
});

test("a factory is given its tokens and classes, in parameter order, and bound to a token or a class", (t) => {
  const container = new Container({ defaultScope: "Singleton" });
  container.load(
    values,
    new ContainerModule((container) => {
      bindFactory(container, Greeter, (greeting: Greeting, name: string) => new Greeter(greeting, name, 1), [Greeting, Name]);
      bindFactory(container, Shout, (greeter: Greeter, times: number) => `${greeter.greet().toUpperCase()} x${times}`, [Greeter, Times]);
    }),
  );
  t.is(container.get(Shout), "HELLO ADA! x2");
  t.is(container.get(Greeter), container.get(Greeter), "the container's default scope still applies");
});

test("a factory whose dependency list or result does not match does not compile", (t) => {
  // As above, the build passing is the proof: each line below must be a type error.
  const mismatches = new ContainerModule((container) => {
    // @ts-expect-error the name and the greeting swapped
    bindFactory(container, Greeter, (greeting: Greeting, name: string) => new Greeter(greeting, name, 1), [Name, Greeting]);
    // @ts-expect-error a token that gives a number where the factory takes a string
    bindFactory(container, Shout, (name: string) => name.toUpperCase(), [Times]);
    // @ts-expect-error one dependency short
    bindFactory(container, Greeter, (greeting: Greeting, name: string) => new Greeter(greeting, name, 1), [Greeting]);
    // @ts-expect-error a bare symbol does not say what it gives
    bindFactory(container, Shout, (name: string) => name.toUpperCase(), [Symbol.for("test.Name")]);
    // @ts-expect-error the factory builds something other than what the token gives
    bindFactory(container, Times, (name: string) => name.toUpperCase(), [Name]);
  });
  t.true(mismatches instanceof ContainerModule);
});
