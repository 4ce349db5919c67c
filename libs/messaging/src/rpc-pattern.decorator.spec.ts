import { Payload } from '@nestjs/microservices';
import { IsString } from 'class-validator';
import { ServiceError, defineRpc } from '@switchboard/contracts';
import { Caller, RpcPattern, requireAccount, type RpcContext } from './rpc-pattern.decorator';

describe('requireAccount', () => {
  it('answers the account the gateway set', () => {
    expect(requireAccount({ accountId: 'acc_1', requestId: 'req_1' })).toBe('acc_1');
  });

  it.each([undefined, ''])('refuses a request without one (%p) as unauthorized', (accountId) => {
    const refuse = () => requireAccount({ accountId, requestId: 'req_1' });
    expect(refuse).toThrow(ServiceError);
    expect(refuse).toThrow(expect.objectContaining({ code: 'unauthorized' }));
  });
});

class NameRequest {
  @IsString() name: string;
}
const Greet = defineRpc<NameRequest, { greeting: string }>('test.v1.greet', NameRequest);

describe('@RpcPattern', () => {
  it('takes a handler whose parameters are all decorated', () => {
    expect(() => {
      class Handlers {
        @RpcPattern(Greet)
        async greet(@Payload() request: NameRequest, @Caller() ctx: RpcContext) {
          return { greeting: `${request.name} for ${ctx.accountId}` };
        }
      }
      return Handlers;
    }).not.toThrow();
  });

  it('refuses, when the class is defined, a parameter Nest would fill by position', () => {
    expect(() => {
      class Handlers {
        @RpcPattern(Greet)
        async greet(@Payload() request: NameRequest, ctx: RpcContext) {
          return { greeting: `${request.name} for ${ctx.accountId}` };
        }
      }
      return Handlers;
    }).toThrow('Handlers.greet: parameter 1 needs @Payload() or @Caller()');
  });

  it("does not compile a handler of another shape than its descriptor's (tsc checks the lines below)", () => {
    class Handlers {
      // @ts-expect-error: the reply is not the descriptor's `{ greeting: string }`.
      @RpcPattern(Greet)
      async wrongReply(@Payload() request: NameRequest) {
        return { hello: request.name };
      }

      // @ts-expect-error: the request is not the descriptor's `NameRequest`.
      @RpcPattern(Greet)
      async wrongRequest(@Payload() request: { id: number }) {
        return { greeting: String(request.id) };
      }
    }
    expect(Handlers).toBeDefined();
  });
});
