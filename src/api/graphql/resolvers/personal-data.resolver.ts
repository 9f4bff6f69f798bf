import { Ctx, Query, Resolver } from 'type-graphql';
import { readPersonalData } from '../../../services/privacy/personal-data-export.service';
import { rootFieldDescription } from '../../operations/operation-catalog';
import { exportPersonalDataOperation } from '../../operations/personal-data.operation';
import { resolveOperation, type GraphQLContext } from '../execution/graphql.context';
import { PersonalDataObject, toPersonalDataObject } from '../types/personal-data.type';

const IN_MEMORY =
  ' On GraphQL the answer is built whole in memory before it is sent: for a large history (many thousands of answers) use REST GET exportPersonalData, which streams the same document, or the operators\u2019 `cli user:export`.';

/** exportPersonalData: the catalog's operation, its document read whole as typed objects. */
@Resolver()
export class PersonalDataResolver {
  @Query(() => PersonalDataObject, {
    nullable: true,
    description: `${rootFieldDescription(exportPersonalDataOperation)}${IN_MEMORY}`,
  })
  async exportPersonalData(@Ctx() context: GraphQLContext): Promise<PersonalDataObject> {
    const data = await resolveOperation(exportPersonalDataOperation, context, {});
    return toPersonalDataObject(await readPersonalData(data));
  }
}
